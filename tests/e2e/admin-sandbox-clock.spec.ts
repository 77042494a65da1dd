import { expect, test } from '@playwright/test';
import { useAdminAccount } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { withDb } from './support/db';

/**
 * The admin's 'Sandbox clock' screen, against the suite's server: the built API under
 * NODE_ENV=production with the sandbox, where the clock answers only an admin session that sends
 * its CSRF token. One day forward renews nothing (every period here is a month or longer), and the
 * offset is put back afterwards, so the other journeys keep the real date.
 */
const admin = useAdminAccount('sandbox-clock');
const DAY_S = 86_400;

const clockOffset = () =>
  withDb(async (client) => Number((await client.query('SELECT offset_seconds FROM sandbox_clock')).rows[0].offset_seconds));

test.afterAll(async () => {
  await withDb((client) => client.query('UPDATE sandbox_clock SET offset_seconds = 0'));
});

test('an admin moves the sandbox clock forward and sees its new time', async ({ page }) => {
  await page.goto('/admin/login');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Sandbox clock' }).click();
  await expect(page).toHaveURL(/\/admin\/sandbox-clock$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sandbox clock' })).toBeVisible();

  const days = page.getByLabel('Days to move forward');
  await days.fill('0');
  await page.getByRole('button', { name: 'Move the clock' }).click();
  await expect(page.getByRole('alert')).toHaveText('Enter a whole number of days from 1 to 366.');
  await expect(days).toHaveAttribute('aria-invalid', 'true');

  const before = await clockOffset();
  await days.fill('1');
  await page.getByRole('button', { name: 'Move the clock' }).click();
  await expect(page.getByTestId('sandbox-clock-now')).toHaveText(/^The sandbox's time is now \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);
  await expect(page.getByText('Moved 1 day forward')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(await clockOffset()).toBe(before + DAY_S);
  await expectNoAxeViolations(page);
});

test('the clock refuses an anonymous caller with the 404 of an address that does not exist', async ({ request }) => {
  const before = await clockOffset();
  const answer = await request.post('/api/sandbox/clock', { data: { advanceDays: 1 } });
  expect(answer.status()).toBe(404);
  expect(await clockOffset()).toBe(before);
});
