import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { planOf } from '@contracts/plans';
import { useAdminAccount } from './support/admin';
import { paidOrderOnOrdersScreen } from './support/admin-orders';
import { expectNoAxeViolations } from './support/axe';

/**
 * The orders screen's 'Stop instalments' on a phone-sized screen: the 6-month plan bought in the
 * sandbox, then the admin finds it, stops its later instalments through the confirm dialog and
 * sees the plan stopped, its button gone.
 */
const tag = randomBytes(6).toString('hex');
const buyer = { email: `stop.buyer.${tag}@example.com`, name: `Ina Stalment ${tag}` };
const admin = useAdminAccount('instalments');
const instalments = planOf('6-month').instalments ?? 0;

test.use({ viewport: { width: 390, height: 844 } });

test('an instalment plan is stopped from the orders screen after a confirm step', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const card = await paidOrderOnOrdersScreen(page, browser, { plan: '6-month', buyer, admin });
  await expect(card.getByText(`1 of ${instalments} paid`)).toBeVisible();

  await card.getByRole('button', { name: 'Stop instalments' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop instalments' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(new RegExp(`No further instalment of .* plan will be charged \\(${instalments - 1} left\\)`))).toBeVisible();
  await expectNoAxeViolations(page);
  // Canceling the dialog stops nothing.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await card.getByRole('button', { name: 'Stop instalments' }).click();
  await dialog.getByRole('button', { name: 'Stop instalments' }).dblclick();

  await expect(dialog).toBeHidden();
  await expect(page.getByText('Instalments stopped', { exact: true })).toBeVisible();
  await expect(card.getByText(new RegExp(`1 of ${instalments} paid, stopped `))).toBeVisible();
  await expect(card.getByRole('button', { name: 'Stop instalments' })).toHaveCount(0);
});
