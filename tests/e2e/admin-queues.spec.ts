import { expect, test } from '@playwright/test';
import { QUEUES } from '@contracts/jobs';
import { useAdminAccount } from './support/admin';

/** The queue dashboard (bull-board, served by the API) behind the admin sign-in. */
const admin = useAdminAccount('queues');

test('/admin/queues needs sign-in, comes back after it and shows every queue by name', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    // The dashboard's own policy blocks its Google Fonts stylesheet on purpose; anything else it blocks would break it.
    if (message.type() === 'error' && /Content Security Policy/.test(message.text()) && !/fonts\.googleapis\.com/.test(message.text()))
      refused.push(message.text());
  });

  await page.goto('/admin/queues');
  await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Fqueues$/);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(/\/admin\/queues\/?$/);
  for (const name of Object.values(QUEUES)) await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('admin-queues.png'), fullPage: true });
  expect(refused).toEqual([]);
});
