import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { planOf } from '@contracts/plans';
import { signInToAdmin, useAdminAccount } from './support/admin';
import { CARDS, checkoutUrl, fillSandboxCard, payButton } from './support/checkout';
import { withDb } from './support/db';
import { adminMoney, adminMoneyPattern, minorUnits } from './support/seller-site';

/**
 * The funnel dashboard against the running server: a scripted journey under a referral id of its
 * own (so other tests' visits and orders do not touch its row) shows up exactly in the figures,
 * then the lead is found by e-mail, the person's data downloaded as JSON and erased.
 */
const tag = randomBytes(6).toString('hex');
// Longer than 20 characters, so the SPA keeps it for the visit once it came in on the URL.
const REFERRAL = `e2e-dash-referral-${tag}`;
const buyer = { email: `dash.buyer.${tag}@example.com`, name: `Dana Buyer ${tag}` };
const LEAD_ONLY = `dash.lead.${tag}@example.com`;
const plan = planOf('full-payment');

test.describe.configure({ mode: 'serial' });

const admin = useAdminAccount('dashboard');

/** A new visitor (a fresh browser profile) who arrives through the affiliate link. */
async function visit(browser: Browser, journey: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const beacon = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/beacon');
  await page.goto(`/?fp_ref=${REFERRAL}`);
  await beacon;
  await journey(page);
  await context.close();
}

function referralRow(page: Page): Locator {
  return page.getByTestId('referral-row').filter({ has: page.getByRole('rowheader', { name: REFERRAL, exact: true }) });
}

test('the dashboard counts a scripted journey exactly, finds the lead, exports and erases the person', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(90_000);

  // Two visitors through the affiliate link; the first starts a full-payment checkout and pays.
  await visit(browser, async (visitor) => {
    const checkoutStart = visitor.waitForRequest(
      (r) => new URL(r.url()).pathname === '/api/beacon' && r.postData()?.includes('checkout_start') === true,
    );
    await visitor.goto(checkoutUrl({ plan: 'full-payment', email: buyer.email, name: buyer.name, referral: REFERRAL }));
    const started = JSON.parse((await checkoutStart).postData() ?? '{}');
    expect(started).toMatchObject({ type: 'checkout_start', path: '/checkout', plan: plan.name, referral: REFERRAL });
    await fillSandboxCard(visitor, CARDS.success);
    await payButton(visitor).click();
    await visitor.waitForURL((url) => url.pathname === '/success');
  });
  await visit(browser, async () => undefined);
  // Two leads through the affiliate link: the buyer and someone who only signed up.
  for (const email of [buyer.email, LEAD_ONLY]) {
    expect(
      (
        await request.post('/api/leads', { data: { email, name: email === buyer.email ? buyer.name : 'Lee Only', referral: REFERRAL } })
      ).status(),
    ).toBe(201);
  }

  await signInToAdmin(page, admin);
  await expect(page.getByRole('link', { name: 'Testimonials' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Queues' })).toBeVisible();
  // The webhook reaches the order through the worker. A sandbox order is a test order: once paid,
  // it counts among the test orders, never as a purchase or revenue.
  await expect(async () => {
    const paid = await withDb(async (client) => {
      const { rows } = await client.query(`SELECT paid_at FROM orders WHERE email_normalized = $1`, [buyer.email]);
      return rows[0]?.paid_at != null;
    });
    expect(paid).toBe(true);
  }).toPass({ timeout: 30_000 });
  await page.reload();
  await expect(referralRow(page).getByRole('cell')).toHaveText(['2', '2', '1', '0', adminMoney(0)]);
  await expect(page.getByTestId('test-orders')).toContainText(
    new RegExp(`^Test orders \\(sandbox or Stripe test mode\\): \\d+ paid, ${adminMoneyPattern()}, not counted`),
  );
  // Recorded as live, as checkout records an order with a Stripe live key, the same order is a purchase.
  await withDb((client) => client.query(`UPDATE orders SET livemode = true WHERE email_normalized = $1`, [buyer.email]));
  await page.reload();
  await expect(referralRow(page).getByRole('cell')).toHaveText(['2', '2', '1', '1', adminMoney(plan.amount)]);

  // Search by e-mail finds the lead.
  const leads = page.getByTestId('records-leads');
  await leads.getByLabel('Search by e-mail').fill(buyer.email.toUpperCase());
  await leads.getByRole('button', { name: 'Search' }).click();
  await expect(leads.getByRole('row')).toHaveCount(2);
  await expect(leads.getByRole('rowheader', { name: buyer.email })).toBeVisible();
  await expect(leads.getByText('Page 1 of 1 (1 total)')).toBeVisible();

  // The person's data downloads as JSON.
  await page.getByLabel('E-mail address').fill(buyer.email);
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  const result = page.getByTestId('person-result');
  await expect(result).toBeVisible();
  const downloading = page.waitForEvent('download');
  await result.getByRole('button', { name: 'Download JSON' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^person-data-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
  expect(exported.lead).toMatchObject({ email: buyer.email, name: buyer.name, referral: REFERRAL });
  expect(exported.orders).toMatchObject([{ plan_id: 'full-payment', amount_cents: minorUnits(plan.amount), status: 'succeeded' }]);

  // Erase asks first; cancel leaves everything, confirm erases.
  await result.getByRole('button', { name: 'Erase this person' }).click();
  await expect(result.getByText(/This cannot be undone/)).toBeVisible();
  await expect(result.getByRole('button', { name: 'Yes, erase' })).toBeFocused();
  await result.getByRole('button', { name: 'Cancel' }).click();
  await expect(result.getByRole('button', { name: 'Yes, erase' })).toHaveCount(0);
  await result.getByRole('button', { name: 'Erase this person' }).click();
  await result.getByRole('button', { name: 'Yes, erase' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Personal data erased' })).toBeVisible();

  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await expect(page.getByText('Nothing is held about this e-mail address.')).toBeVisible();
  const held = await withDb(async (client) => {
    const { rows } = await client.query(
      `SELECT (SELECT count(*) FROM leads WHERE email_normalized = $1)::int + (SELECT count(*) FROM orders WHERE email_normalized = $1)::int AS n`,
      [buyer.email],
    );
    return rows[0].n as number;
  });
  expect(held).toBe(0);

  // The erase is in the audit log, and the purchase still counts, anonymously.
  const audit = page.getByTestId('audit-log');
  const erased = audit
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'person.erase', exact: true }) })
    .filter({ hasText: admin.email });
  await expect(erased).toHaveCount(1);
  await expect(erased).toContainText(/erasure:[0-9a-f-]{36} lead:[0-9a-f-]{36} order:[0-9a-f-]{36}/);
  await expect(erased).not.toContainText(buyer.email);
  await expect(referralRow(page).getByRole('cell')).toHaveText(['2', '2', '1', '1', adminMoney(plan.amount)]);
});

test('the dashboard is usable at 390 px: no sideways scrolling of the page', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToAdmin(page, admin);
  await expect(page.getByRole('heading', { level: 2, name: 'Funnel' })).toBeVisible();
  await expect(page.getByLabel('From')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
