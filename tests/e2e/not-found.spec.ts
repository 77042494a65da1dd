import { expect, test } from '@playwright/test';
import { pageCopy } from './support/seller-site';

const TABLE_ROUTES = [
  '/invitation',
  '/blackcard',
  '/upsell',
  '/blackcard-upsell',
  '/checkout',
  '/success',
  '/account',
  '/admin/testimonials',
];

test.describe('routing', () => {
  test('an unknown path shows the 404 card, served with HTTP status 404', async ({ page }) => {
    const response = await page.goto('/definitely/not/a/page');
    expect(response?.status()).toBe(404);
    const card = page.getByTestId('not-found');
    await expect(card.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeVisible();
    await expect(card).toContainText('Did you forget to add the page to the router?');
    await expect(page).toHaveTitle(/Page Not Found/);
  });

  test('a deep link to /checkout?plan=2-month is served by the history fallback and shows checkout', async ({ page, request }) => {
    const response = await request.get('/checkout?plan=2-month', { headers: { accept: 'text/html' } });
    expect(response.status()).toBe(200);
    const html = await response.text();
    // Checkout's own document (its screen prerendered as its frame), not the prerendered landing page.
    expect(html).toContain('Complete Your Order');
    expect(html).not.toContain('Your next level of greatness starts here.');

    await page.goto('/checkout?plan=2-month');
    await expect(page.getByRole('heading', { level: 1, name: 'Complete Your Order' })).toBeVisible();
    await expect(page).toHaveTitle(/Checkout/);
    await expect(page.getByTestId('not-found')).toHaveCount(0);
  });

  test('crawlers get a robots.txt, not the app shell', async ({ request }) => {
    const response = await request.get('/robots.txt');
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain('Disallow: /admin/');
  });

  test('route matching ignores case', async ({ page }) => {
    await page.goto('/CHECKOUT?plan=standard');
    await expect(page.getByRole('heading', { level: 1, name: 'Complete Your Order' })).toBeVisible();
  });

  test('every route of the route table has its own screen, not the 404 card', async ({ page }) => {
    for (const path of TABLE_ROUTES) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
      await expect(page.getByTestId('not-found'), path).toHaveCount(0);
      await expect(page, path).not.toHaveTitle(/Page Not Found/);
    }
  });

  test('client-side navigation back to the landing page renders it', async ({ page }) => {
    await page.goto('/definitely-missing');
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your next level of greatness starts here.' })).toBeVisible();
    await expect(page).toHaveTitle(pageCopy('head').title);
  });
});
