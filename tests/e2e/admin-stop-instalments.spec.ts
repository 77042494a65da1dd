import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { useAdminAccount } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { CARDS, checkoutUrl, fillSandboxCard, payButton } from './support/checkout';
import { waitForMail } from './support/mail';

/**
 * The orders screen's 'Stop instalments' on a phone-sized screen: a 6-Month Plan bought in the
 * sandbox, then the admin finds it, stops its later instalments through the confirm dialog and
 * sees the plan stopped, its button gone.
 */
const tag = randomBytes(6).toString('hex');
const buyer = { email: `stop.buyer.${tag}@example.com`, name: `Ina Stalment ${tag}` };
const admin = useAdminAccount('instalments');

test.use({ viewport: { width: 390, height: 844 } });

test('an instalment plan is stopped from the orders screen after a confirm step', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const shopper = await browser.newContext();
  const checkout = await shopper.newPage();
  await checkout.goto(checkoutUrl({ plan: '6-month', email: buyer.email, name: buyer.name }));
  await fillSandboxCard(checkout, CARDS.success);
  await payButton(checkout).click();
  await checkout.waitForURL((url) => url.pathname === '/success');
  await waitForMail(buyer.email, /receipt/i);
  await shopper.close();

  await page.goto('/admin/login?next=%2Fadmin%2Forders');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin\/orders$/);
  await page.getByLabel('E-mail or order id').fill(buyer.email);
  await page.getByRole('button', { name: 'Search' }).click();
  const card = page.getByTestId('order-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByText('1 of 6 paid')).toBeVisible();

  await card.getByRole('button', { name: 'Stop instalments' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop instalments' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/No further instalment of .* plan will be charged \(5 left\)/)).toBeVisible();
  await expectNoAxeViolations(page);
  // Canceling the dialog stops nothing.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await card.getByRole('button', { name: 'Stop instalments' }).click();
  await dialog.getByRole('button', { name: 'Stop instalments' }).dblclick();

  await expect(dialog).toBeHidden();
  await expect(page.getByText('Instalments stopped', { exact: true })).toBeVisible();
  await expect(card.getByText(/1 of 6 paid, stopped /)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Stop instalments' })).toHaveCount(0);
});
