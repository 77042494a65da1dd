import { expect, test, type Page, type Request } from '@playwright/test';
import { affiliateSignupsFor } from './support/affiliate';
import { handOffOf } from './support/checkout';
import { findLeadByEmail } from './support/db';
import { openLanding, uniqueEmail } from './support/landing';

function leadForm(page: Page) {
  const form = page.getByTestId('lead-form');
  return {
    name: form.getByLabel('Name (Optional)'),
    email: form.getByLabel('Email Address *'),
    phone: form.getByLabel('Phone Number (Optional)'),
    submit: form.getByRole('button', { name: 'Continue to Payment' }),
    busy: form.getByRole('button', { name: 'Processing...' }),
  };
}

function recordLeadRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/leads') requests.push(request);
  });
  return requests;
}

test.describe('lead capture on the landing page', () => {
  test('saves the lead and continues to checkout with plan, email and name', async ({ page }) => {
    const email = uniqueEmail('lead');
    const name = 'Avery Example';
    await openLanding(page);
    // Slow the real request down a little so the pending state can be observed.
    await page.route('**/api/leads', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    const form = leadForm(page);
    await form.name.fill(name);
    await form.email.fill(email);
    await form.phone.fill('+1 555 0100');
    const leadRequest = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/leads');
    await form.submit.click();

    await expect(form.busy).toBeDisabled();
    const request = await leadRequest;
    expect(request.method()).toBe('POST');
    expect(request.headers()['content-type']).toContain('application/json');
    expect(request.postDataJSON()).toMatchObject({ email, name, phone: '+1 555 0100' });

    await page.waitForURL((url) => url.pathname === '/checkout');
    expect(await handOffOf(page)).toEqual({ plan: 'standard', email, name });
    await expect(page.getByRole('heading', { level: 1, name: 'Complete Your Order' })).toBeVisible();
    expect(await findLeadByEmail(email)).toEqual({ email_normalized: email.toLowerCase() });
  });

  test('sends referral and first-landing attribution, and leaves out empty optional fields', async ({ page }) => {
    const email = uniqueEmail('attribution');
    await page.goto('/?utm_source=newsletter&utm_campaign=spring&utm_medium=&gclid=g-123&via=partner-anna');
    await expect(leadForm(page).submit).toBeEnabled();
    const form = leadForm(page);
    await form.email.fill(email);
    const leadRequest = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/leads');
    await form.submit.click();

    expect((await leadRequest).postDataJSON()).toEqual({
      email,
      referral: 'partner-anna',
      attribution: { utm_source: 'newsletter', utm_campaign: 'spring', gclid: 'g-123', landing_path: '/' },
    });
    await page.waitForURL((url) => url.pathname === '/checkout');
    expect(await handOffOf(page)).toEqual({ plan: 'standard', email });

    // The worker delivers the signup to the affiliate service (a recording fake on loopback).
    await expect
      .poll(async () => (await affiliateSignupsFor(email)).map((call) => call.params), { timeout: 15_000 })
      .toEqual([{ email, uid: expect.any(String), ref_id: 'partner-anna' }]);
  });

  test('rejects an invalid e-mail inline without calling the server', async ({ page }) => {
    const requests = recordLeadRequests(page);
    await openLanding(page);
    const form = leadForm(page);
    await form.name.fill('Avery Example');
    await form.email.fill('not-an-email');
    await form.submit.click();

    const error = page.getByText('Please enter a valid email address');
    await expect(error).toBeVisible();
    await expect(form.email).toHaveAttribute('aria-invalid', 'true');
    await expect(form.email).toHaveAccessibleDescription('Please enter a valid email address');
    await expect(form.email).toBeFocused();
    expect(requests).toHaveLength(0);
    await expect(page).toHaveURL(/\/$/);

    await form.email.fill('fixed@example.com');
    await expect(error).toBeHidden();
  });

  test('shows the real API validation message for a name over 200 characters', async ({ page }) => {
    await openLanding(page);
    const form = leadForm(page);
    await form.name.fill('N'.repeat(201));
    await form.email.fill(uniqueEmail('long-name'));
    const response = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/leads');
    await form.submit.click();

    expect((await response).status()).toBe(400);
    await expect(page.getByRole('alert').filter({ hasText: 'name must be at most 200 characters' })).toBeVisible();
    await expect(form.name).toHaveValue('N'.repeat(201));
    await expect(page).toHaveURL(/\/$/);
  });

  test.describe('screen: lead capture on a stubbed failing save', () => {
    test('shows the server message in one error toast and keeps the form filled when saving fails', async ({ page }) => {
      await page.clock.install();
      await openLanding(page);
      await page.route('**/api/leads', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'Database unavailable' }),
        }),
      );
      const form = leadForm(page);
      await form.name.fill('Avery Example');
      await form.email.fill('kept@example.com');
      await form.phone.fill('+1 555 0199');
      await form.submit.click();

      const toast = page.getByRole('alert').filter({ hasText: 'Database unavailable' });
      await expect(toast).toBeVisible();
      await expect(toast).toContainText('Error');
      await expect(form.name).toHaveValue('Avery Example');
      await expect(form.email).toHaveValue('kept@example.com');
      await expect(form.phone).toHaveValue('+1 555 0199');
      await expect(form.submit).toBeEnabled();
      await expect(page).toHaveURL(/\/$/);

      // A second failure replaces the toast rather than stacking a new one. The count is taken once
      // the second answer has been shown (its toast starts a new 5 s), not before it arrives. The
      // page's clock stands still from before that answer (a second ahead of its time now), so the
      // toast's 5 s are counted by the page's own timers as the test moves them, not by the machine.
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      const secondAnswer = page.waitForResponse('**/api/leads');
      await form.submit.click();
      await secondAnswer;
      await expect(form.submit).toBeEnabled();
      await expect(toast).toBeVisible();
      await expect(page.getByTestId('toast')).toHaveCount(1);

      // Toasts close on their own after 5 s: still there just before, gone just after.
      await page.clock.runFor(4_900);
      await expect(toast).toBeVisible();
      await page.clock.runFor(200);
      await expect(toast).toBeHidden();
    });

    test('falls back to "Failed to save information" when the failure has no readable message', async ({ page }) => {
      await openLanding(page);
      await page.route('**/api/leads', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad gateway</h1>' }));
      const form = leadForm(page);
      await form.email.fill('fallback@example.com');
      await form.submit.click();
      await expect(page.getByRole('alert').filter({ hasText: 'Failed to save information' })).toBeVisible();
    });
  });
});
