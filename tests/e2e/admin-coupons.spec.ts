import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { OFFERS, planOf } from '@contracts/plans';
import { signInToAdmin, useAdminAccount } from './support/admin';
import { expectNoAxeViolations } from './support/axe';

/** The admin's coupons screen: create a code, see it listed with its terms, deactivate it. */
const admin = useAdminAccount('coupons');
const fullPayment = planOf('full-payment');
const code = `ADM${randomBytes(4).toString('hex').toUpperCase()}`;

test('creates a coupon, lists it and deactivates it', async ({ page }) => {
  await signInToAdmin(page, admin, '/admin/coupons');
  await expect(page.getByRole('heading', { level: 1, name: 'Coupons' })).toBeVisible();

  const form = page.getByTestId('coupon-create');
  await form.getByLabel('Code').fill(code.toLowerCase());
  await form.getByRole('textbox', { name: 'Percent off' }).fill('25');
  // The default plan is ticked already; the full payment is added to it.
  await form.getByLabel(fullPayment.name).check();
  await form.getByLabel('Subscriptions: discounted months (empty: forever)').fill('3');
  await form.getByLabel('Maximum redemptions (empty: unlimited)').fill('100');
  await form.getByRole('button', { name: 'Create coupon' }).click();
  await expect(form.getByRole('status')).toHaveText(`Coupon ${code} created.`);

  const row = page.getByTestId('coupon-row').filter({ hasText: code });
  await expect(row).toContainText('25%');
  await expect(row).toContainText(`${OFFERS.default.name}, ${fullPayment.name}`);
  await expect(row).toContainText('First 3 months');
  await expect(row).toContainText('0 / 100');
  await expect(row).toContainText('Active');
  await expectNoAxeViolations(page);

  await form.getByLabel('Code').fill(code);
  await form.getByRole('button', { name: 'Create coupon' }).click();
  await expect(form.getByRole('alert')).toHaveText(`A coupon with the code ${code} exists already.`);

  await row.getByRole('button', { name: `Deactivate ${code}` }).click();
  await expect(row).toContainText('Deactivated');
  await expect(row.getByRole('button')).toHaveCount(0);
});
