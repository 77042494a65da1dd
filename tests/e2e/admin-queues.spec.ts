import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { QUEUES } from '../../backend/src/shared/contracts/jobs';

/** The queue dashboard (bull-board, served by the API) behind the admin sign-in. */
const CLI = join(__dirname, '..', '..', 'dist', 'scripts', 'admin-create.js');
const admin = { email: `e2e.queues.${randomBytes(4).toString('hex')}@example.com`, password: `pw-${randomBytes(12).toString('hex')}` };

test.beforeAll(() => {
  const created = spawnSync(process.execPath, [CLI, '--email', admin.email], { input: `${admin.password}\n`, env: process.env, encoding: 'utf8' });
  expect(created.status, created.stderr).toBe(0);
});

test.afterAll(async () => {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query('DELETE FROM admin_accounts WHERE email_normalized = $1', [admin.email]);
  } finally {
    await client.end();
  }
});

test('/admin/queues needs sign-in, comes back after it and shows every queue by name', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    // The dashboard's own policy blocks its Google Fonts stylesheet on purpose; anything else it blocks would break it.
    if (message.type() === 'error' && /Content Security Policy/.test(message.text()) && !/fonts\.googleapis\.com/.test(message.text())) refused.push(message.text());
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
