import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { QUEUES } from '@contracts/jobs';
import { signInToAdmin, useAdminAccount } from './support/admin';
import { withDb } from './support/db';

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

test('a job that gave up shows on /admin with its reason; one click queues it again and the audit log names the admin', async ({
  page,
}) => {
  const reason = `Affiliate service answered 503 (${randomUUID().slice(0, 8)})`;
  // As the worker leaves a job past its retry horizon: its outbox row failed with the reason.
  const id = await withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO outbox (queue, job_name, payload, dispatched_at, dispatch_count, failed_at, last_error)
       VALUES ('tracking', 'affiliate-signup', $1, now() - interval '3 days', 1, now(), $2) RETURNING id`,
      [JSON.stringify({ leadId: randomUUID() }), reason],
    );
    return rows[0].id;
  });

  await signInToAdmin(page, admin);

  const section = page.getByTestId('exhausted-jobs');
  await expect(section.getByRole('heading', { name: 'Jobs that gave up' })).toBeVisible();
  const row = section.getByTestId('exhausted-job').filter({ hasText: id });
  await expect(row).toContainText(reason);
  await expect(row).toContainText('affiliate-signup');
  await page.screenshot({ path: test.info().outputPath('admin-exhausted-jobs.png'), fullPage: true });

  await row.getByRole('button', { name: `Retry affiliate-signup ${id}` }).click();
  await expect(page.getByText('The job is queued again')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('audit-log')).toContainText(`job:${QUEUES.tracking}/${id}`);
  // The relay offered it again under its id and the worker ran it (its lead no longer exists: nothing to send).
  await expect
    .poll(() => withDb(async (client) => (await client.query('SELECT completed_at, failed_at FROM outbox WHERE id = $1', [id])).rows[0]))
    .toMatchObject({ completed_at: expect.any(Date), failed_at: null });
});
