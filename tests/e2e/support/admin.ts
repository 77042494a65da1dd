import { expect, test, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { withDb } from './db';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'scripts', 'admin-create.js');

/**
 * An admin account of this spec file's own: created before its tests through the same command an
 * operator runs (`echo '…' | npm run admin:create -- --email …`), removed after them.
 */
export function useAdminAccount(label: string): { email: string; password: string } {
  const admin = { email: `e2e.${label}.${randomBytes(4).toString('hex')}@example.com`, password: `pw-${randomBytes(12).toString('hex')}` };
  test.beforeAll(() => {
    const created = spawnSync(process.execPath, [CLI, '--email', admin.email], {
      input: `${admin.password}\n`,
      env: process.env,
      encoding: 'utf8',
    });
    expect(created.status, created.stderr).toBe(0);
  });
  test.afterAll(async () => {
    await withDb((client) => client.query('DELETE FROM admin_accounts WHERE email_normalized = $1', [admin.email]));
  });
  return admin;
}

/** Signs `admin` in through the sign-in page, which then opens `screen` (its `next`). */
export async function signInToAdmin(page: Page, admin: { email: string; password: string }, screen = '/admin'): Promise<void> {
  await page.goto(`/admin/login?next=${encodeURIComponent(screen)}`);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new URL(screen, page.url()).href);
}
