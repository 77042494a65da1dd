import { expect, test } from '@playwright/test';
import { randomBytes, randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { formatMoney, minorUnitDigits, minorUnitsPerMajor, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS } from '@contracts/plans';
import { seedOrder, seedPause, type RowQuery } from '../integration/support/revenue-rows';
import { signInToAdmin, useAdminAccount } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { withDb } from './support/db';

/**
 * The revenue screen against the running server: four live members of the default plan in the
 * first quarter of a year of their own, one of them pausing in February, (long past, picked at random, so other specs' orders and
 * a rerun's leftovers stay out of it) show up in its figures, chart and cohort table; its CSV
 * downloads; axe finds nothing. Their orders are ended ones, so 'MRR now' is not theirs to change.
 */
const tag = randomBytes(4).toString('hex');
const YEAR = randomInt(1990, 2015);
const S = toMinorUnits(OFFERS.default.amount, CURRENCY);
const money = (cents: number) => formatMoney(cents, CURRENCY, { decimals: 'always' });
const month = (m: number) => `${YEAR}-0${m}`;
const at = (m: number) => `${month(m)}-10T12:00:00.000Z`;
const emails = ['one', 'two', 'three', 'four'].map((who) => `revenue.${who}.${tag}@example.com`);

test.describe.configure({ mode: 'serial' });
const admin = useAdminAccount('revenue');

test.beforeAll(async () => {
  await withDb(async (client) => {
    const query: RowQuery = async (sql, params) => (await client.query(sql, params)).rows;
    const std = { planId: OFFERS.default.id, kind: 'subscription' as const, amountCents: S, currency: CURRENCY, status: 'canceled' };
    // One pays January to March, two January only, three February and March; four pays January, pauses on the 20th for
    // a month (February's renewal is void) and pays March.
    await seedOrder(query, { ...std, email: emails[0], payments: [at(1), at(2), at(3)] });
    await seedOrder(query, { ...std, email: emails[1], payments: [at(1)] });
    await seedOrder(query, { ...std, email: emails[2], payments: [at(2), at(3)] });
    const four = await seedOrder(query, { ...std, email: emails[3], payments: [at(1), at(3)] });
    const resumesAt = `${month(3)}-10T11:00:00.000Z`;
    await seedPause(query, { orderId: four.orderId, at: `${month(1)}-20T12:00:00.000Z`, months: 1, resumesAt });
  });
});

test.afterAll(async () => {
  await withDb(async (client) => {
    await client.query(`DELETE FROM payments WHERE order_id IN (SELECT id FROM orders WHERE email_normalized = ANY($1))`, [emails]);
    await client.query(`DELETE FROM cancellation_feedback WHERE order_id IN (SELECT id FROM orders WHERE email_normalized = ANY($1))`, [
      emails,
    ]);
    await client.query(`DELETE FROM orders WHERE email_normalized = ANY($1)`, [emails]);
  });
});

test('is closed to anyone not signed in', async ({ page }) => {
  await page.goto('/admin/revenue');
  await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Frevenue/);
  expect((await page.request.get('/api/admin/revenue')).status()).toBe(401);
});

test('shows the quarter’s MRR, movements and cohorts, downloads them as CSV, and passes axe', async ({ page }) => {
  await signInToAdmin(page, admin, `/admin/revenue?from=${month(1)}&to=${month(3)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Revenue' })).toBeVisible();

  // Month, MRR, paying, on pause, new, expansion, contraction, churned, reactivated, paused, resumed.
  await expect(page.getByTestId('revenue-month')).toHaveCount(3);
  const rows = page.getByTestId('revenue-month');
  const none = money(0);
  await expect(rows.nth(0).getByRole('cell')).toHaveText([money(3 * S), '3', '0', money(3 * S), none, none, none, none, none, none]);
  // Four's pause is not churn: their MRR leaves as paused in February and comes back as resumed in March.
  await expect(rows.nth(1).getByRole('cell')).toHaveText([money(2 * S), '2', '1', money(S), none, none, money(S), none, money(S), none]);
  await expect(rows.nth(2).getByRole('cell')).toHaveText([money(3 * S), '3', '0', none, none, none, none, none, none, money(S)]);
  await expect(page.getByTestId('revenue-churn-month').nth(1).getByRole('cell').first()).toHaveText('1');
  await expect(page.getByRole('img', { name: new RegExp(`^MRR from ${month(1)} to ${month(3)}, ending at`) })).toBeVisible();
  await expect(page.getByTestId('mrr-chart').locator('rect')).toHaveCount(3);
  await expect(page.getByTestId('revenue-cohort')).toHaveCount(2);
  // Four, on pause in February, is still a member of January's cohort.
  await expect(page.getByTestId('revenue-cohort').nth(0).getByRole('cell')).toHaveText(['3', '3', '2', '2']);
  await expect(page.getByTestId('revenue-cohort').nth(1).getByRole('cell')).toHaveText(['1', '1', '1', '']);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download MRR movements as CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`revenue-months-${month(1)}-to-${month(3)}.csv`);
  const lines = (await readFile(await download.path(), 'utf8')).split('\r\n');
  const units = (cents: number) => (cents / minorUnitsPerMajor(CURRENCY)).toFixed(minorUnitDigits(CURRENCY));
  expect(lines[2].split(',').slice(0, 8)).toEqual([month(2), units(2 * S), '2', units(S), '1', units(0), units(0), units(S)]);
  expect(lines[2].split(',').slice(19)).toEqual(['1', units(S), '1', units(0), '0']);

  const cohorts = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download cohorts as CSV' }).click();
  const cohortLines = (await readFile(await (await cohorts).path(), 'utf8')).split('\r\n');
  expect(cohortLines.slice(0, 3)).toEqual(['cohort,members,month_0,month_1,month_2', `${month(1)},3,3,2,2`, `${month(2)},1,1,1,`]);

  await expectNoAxeViolations(page);
});
