import { expect, test, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { defaultSiteDir, loadCopy, siteDir } from '@contracts/site/site-folder';
import type accountJson from '../../site/copy/account.json';
import { signInToAdmin, useAdminAccount } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { CARDS, checkoutUrl, fillSandboxCard, payButton } from './support/checkout';
import { sandboxNow, withDb } from './support/db';
import { uniqueEmail } from './support/landing';
import { waitForMail } from './support/mail';

/**
 * The cancellation flow through the browser and the admin's sandbox clock: a member who finds it
 * too expensive takes the admin's save offer, and only their next renewal is charged at the
 * discount; another pauses for two months, is charged nothing for two periods, gets the reminder
 * e-mail, then the renewal; a third cancels in two clicks. An admin journey: the clock it moves
 * bills every sandbox subscription, so it runs after the public journeys, and is put back after.
 * Copy, prices and names come from the site folder.
 */
const admin = useAdminAccount('cancellation-flow');
const copy = loadCopy<typeof accountJson>(siteDir(__dirname), defaultSiteDir(__dirname), 'copy/account.json', site);
const flow = copy.cancelFlow;
const PERCENT_OFF = 20;
const STANDARD_CENTS = toMinorUnits(OFFERS.default.amount, CURRENCY);
const money = (cents: number) => formatMoney(cents, CURRENCY);
const code = `STAY${randomBytes(3).toString('hex').toUpperCase()}`;
/** A copy template with its one placeholder matching any text. */
const templated = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[a-z]+\}/g, '.+')}$`);

test.describe.configure({ mode: 'serial' });

test.afterAll(async () => {
  await withDb(async (client) => {
    await client.query('UPDATE coupons SET active = false WHERE code = $1', [code]);
    await client.query('UPDATE sandbox_clock SET offset_seconds = 0');
  });
});

/** A member of the default plan (sandbox, 4242), signed in on /account through the e-mailed link. */
async function member(page: Page, email: string): Promise<void> {
  await page.goto(checkoutUrl({ plan: OFFERS.default.id, email, name: 'Can Cel' }));
  await fillSandboxCard(page, CARDS.success);
  await payButton(page).click();
  await page.waitForURL((url) => url.pathname === '/success');
  await page.goto('/account');
  await page.getByTestId('account-sign-in').getByLabel(copy.signIn.emailLabel).fill(email);
  await page.getByRole('button', { name: copy.signIn.submit }).click();
  const [mail] = await waitForMail(email, /sign-in link/i);
  const link = new URL(mail.text!.match(/https?:\/\/\S+\/account\?token=[A-Za-z0-9_-]{43}/)![0]);
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByRole('button', { name: copy.link.submit }).click();
  await expect(page.getByTestId('membership')).toBeVisible();
}

/** Moves the sandbox clock on the admin's screen, in a page of its own. */
async function moveClock(adminPage: Page, days: number): Promise<void> {
  const field = adminPage.getByLabel('Days to move forward');
  await field.fill(String(days));
  await adminPage.getByRole('button', { name: 'Move the clock' }).click();
  await expect(adminPage.getByText(`Moved ${days} ${days === 1 ? 'day' : 'days'} forward`)).toBeVisible();
}

/** The amounts of the member's payments as /account lists them, once it lists `count`. */
async function paymentsShown(page: Page, count: number): Promise<string[]> {
  const rows = page.getByTestId('membership-payments').getByRole('listitem');
  await expect
    .poll(
      async () => {
        await page.reload();
        await expect(page.getByTestId('membership')).toBeVisible();
        return rows.count();
      },
      { timeout: 30_000, intervals: [500, 1000, 2000] },
    )
    .toBe(count);
  return rows.allInnerTexts();
}

test('an admin offers a save coupon; a member who finds it too expensive takes it: the next renewal only is discounted', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const adminPage = await context.newPage();
  await signInToAdmin(adminPage, admin, '/admin/coupons');
  const form = adminPage.getByTestId('coupon-create');
  await form.getByLabel('Code').fill(code);
  await form.getByRole('textbox', { name: 'Percent off' }).fill(String(PERCENT_OFF));
  await form.getByRole('checkbox', { name: /Save offer/ }).check();
  await form.getByRole('button', { name: 'Create coupon' }).click();
  await expect(adminPage.getByTestId('coupon-row').filter({ hasText: code })).toContainText('Save offer');

  const email = uniqueEmail('save-offer');
  await member(page, email);
  const membership = page.getByTestId('membership');
  await membership.getByRole('button', { name: copy.cancel }).click();
  const dialog = page.getByTestId('cancel-dialog');
  await expect(dialog.getByRole('button', { name: flow.keep })).toBeFocused();
  await dialog.getByLabel(flow.reasons.too_expensive).check();
  await dialog.getByRole('button', { name: flow.continue }).click();
  await expect(dialog.getByRole('heading', { name: flow.discount.title })).toBeVisible();
  await expect(dialog.getByRole('button', { name: flow.cancelNow })).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: flow.discount.accept.replace('{discount}', `${PERCENT_OFF}%`) }).click();
  await expect(membership.getByTestId('membership-notice')).toHaveText(copy.discountedNotice.replace('{discount}', `${PERCENT_OFF}%`));
  await expect(membership.getByTestId('membership-status')).toHaveText('Active');

  await adminPage.goto('/admin/sandbox-clock');
  await moveClock(adminPage, 31);
  const discounted = STANDARD_CENTS - Math.round((STANDARD_CENTS * PERCENT_OFF) / 100);
  expect((await paymentsShown(page, 2))[1]).toContain(money(discounted));
  await moveClock(adminPage, 31);
  expect((await paymentsShown(page, 3))[2]).toContain(money(STANDARD_CENTS));

  // The admin sees the answer and what came of it.
  await adminPage.goto('/admin/coupons');
  await expect(adminPage.getByTestId('cancellation-recent')).toContainText('Took the save offer');
});

test('a member pauses for two months: no charge for two periods, the reminder e-mail, then the renewal', async ({ page, context }) => {
  test.setTimeout(180_000);
  const adminPage = await context.newPage();
  await signInToAdmin(adminPage, admin, '/admin/sandbox-clock');
  const email = uniqueEmail('pause');
  await member(page, email);
  const membership = page.getByTestId('membership');
  await membership.getByRole('button', { name: copy.cancel }).click();
  const dialog = page.getByTestId('cancel-dialog');
  await dialog.getByLabel(flow.reasons.not_using).check();
  await dialog.getByRole('button', { name: flow.continue }).click();
  await expect(dialog.getByRole('heading', { name: flow.pause.title })).toBeVisible();
  await dialog.getByRole('button', { name: flow.pause.months.replace('{months}', '2') }).click();
  await expect(membership.getByTestId('membership-status')).toHaveText(templated(copy.paused));

  // Two periods end while paused: still the one payment.
  await moveClock(adminPage, 31);
  await moveClock(adminPage, 31);
  expect(await paymentsShown(page, 1)).toHaveLength(1);
  // The pause ends 2 months after the first period, i.e. 28–31 days from here: 3 days before, the reminder.
  const [{ days }] = await withDb(async (client) =>
    (
      await client.query(
        `SELECT floor(extract(epoch FROM f.resumes_at - $2::timestamptz) / 86400)::int - 2 AS days
           FROM cancellation_feedback f JOIN orders o ON o.id = f.order_id WHERE o.email = $1`,
        [email, await sandboxNow(client)],
      )
    ).rows,
  );
  await moveClock(adminPage, days);
  const [reminder] = await waitForMail(email, /resumes on/, 30_000);
  expect(reminder.text).toContain(OFFERS.default.displayText);
  expect(await paymentsShown(page, 1)).toHaveLength(1);
  await moveClock(adminPage, 4);
  expect((await paymentsShown(page, 2))[1]).toContain(money(STANDARD_CENTS));
  await expect(membership.getByTestId('membership-status')).toHaveText('Active');
});

test('a member cancels in two clicks from the account page', async ({ page }) => {
  test.setTimeout(120_000);
  await member(page, uniqueEmail('two-clicks'));
  const membership = page.getByTestId('membership');
  await membership.getByRole('button', { name: copy.cancel }).click();
  await page.getByTestId('cancel-dialog').getByRole('button', { name: flow.cancelNow }).click();
  await expect(membership.getByTestId('membership-status')).toHaveText(/^Canceling on /);
  await expect(membership.getByTestId('membership-notice')).toHaveText(copy.canceled);
});
