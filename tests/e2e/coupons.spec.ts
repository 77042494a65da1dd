import { expect, test } from '@playwright/test';
import { planOf } from '@contracts/plans';
import { CARDS, checkoutUrl, fillSandboxCard, payButton } from './support/checkout';
import { withDb } from './support/db';
import { uniqueEmail } from './support/landing';
import { funnelMoney, minorUnits, priceOf, siteCopy } from './support/seller-site';

/** Coupons at /checkout against the real API and the sandbox: the server's quote in the summary and on the pay button. */
const NAME = 'Coupon Shopper';
const standard = planOf('standard');
const fullPayment = planOf('full-payment');
const welcome = siteCopy<{ welcome: { heading: string } }>('copy/success.json').welcome.heading;
/** A plan's price less `percent` %, in whole units of the site's currency (the amounts here divide exactly). */
const less = (amount: number, percent: number) => (amount * (100 - percent)) / 100;
const code = (label: string) => `E2E${label}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.toUpperCase();

/** Seeds a coupon as the admin screen would make it (the admin API itself is covered by the integration suite). */
async function seedCoupon(terms: { code: string; percentOff: number; planIds: string[]; durationMonths?: number }): Promise<void> {
  await withDb((client) =>
    client.query(`INSERT INTO coupons (code, kind, percent_off, plan_ids, duration_months) VALUES ($1, 'percent', $2, $3, $4)`, [
      terms.code,
      terms.percentOff,
      terms.planIds,
      terms.durationMonths ?? null,
    ]),
  );
}

test('?coupon=CODE shows the discount, the new total and the amount on the pay button, and the payment is confirmed', async ({ page }) => {
  const coupon = code('HALF');
  await seedCoupon({ code: coupon, percentOff: 50, planIds: ['standard'], durationMonths: 2 });
  const setupRequest = page.waitForRequest('**/api/create-setup-intent');
  await page.goto(checkoutUrl({ plan: 'standard', email: uniqueEmail('coupon'), name: NAME, coupon: coupon.toLowerCase() }));

  const summary = page.getByTestId('order-summary');
  const half = funnelMoney(less(standard.amount, 50));
  await expect(summary.getByTestId('summary-discount')).toHaveText(`−${funnelMoney(standard.amount - less(standard.amount, 50))}`);
  await expect(summary).toContainText(`Discount (${coupon})`);
  await expect(summary.getByTestId('summary-amount')).toHaveText(half);
  await expect(summary.getByTestId('summary-discount-months')).toHaveText('Discount applies to the first 2 months');
  await expect(summary.getByTestId('summary-price')).toHaveText(standard.displayText);
  await expect(payButton(page)).toHaveText(`Pay ${half}`);
  expect((await setupRequest).postDataJSON()).toMatchObject({ coupon });

  await fillSandboxCard(page, CARDS.success);
  await payButton(page).click();
  await page.waitForURL((url) => url.pathname === '/success');
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Confirmed!' })).toBeVisible();
  const [order] = await withDb(
    async (client) => (await client.query(`SELECT amount_cents, status FROM orders WHERE coupon_code = $1`, [coupon])).rows,
  );
  expect(order).toEqual({ amount_cents: minorUnits(less(standard.amount, 50)), status: 'active' });
});

test("'Have a coupon?' with a bad code shows the server's message and keeps the full price; a good one applies", async ({ page }) => {
  const coupon = code('TEN');
  await seedCoupon({ code: coupon, percentOff: 10, planIds: ['full-payment'] });
  await page.goto(checkoutUrl({ plan: 'full-payment', email: uniqueEmail('coupon-field'), name: NAME }));
  await expect(payButton(page)).toHaveText(`Pay ${priceOf('full-payment')}`);
  await expect(payButton(page)).toBeEnabled();

  const summary = page.getByTestId('order-summary');
  await summary.getByRole('button', { name: 'Have a coupon?' }).click();
  await summary.getByLabel('Coupon code').fill('NOSUCHCODE');
  await summary.getByRole('button', { name: 'Apply' }).click();
  await expect(summary.getByTestId('coupon-message')).toHaveText('This coupon code is not valid.');
  await expect(summary.getByTestId('summary-amount')).toHaveText(priceOf('full-payment'));
  await expect(payButton(page)).toHaveText(`Pay ${priceOf('full-payment')}`);

  const intent = page.waitForRequest('**/api/create-payment-intent');
  await summary.getByLabel('Coupon code').fill(coupon);
  await summary.getByRole('button', { name: 'Apply' }).click();
  const tenOff = funnelMoney(less(fullPayment.amount, 10));
  await expect(summary.getByTestId('summary-amount')).toHaveText(tenOff);
  await expect(payButton(page)).toHaveText(`Pay ${tenOff}`);
  expect((await intent).postDataJSON()).toMatchObject({ coupon, plan: fullPayment.name, amount: fullPayment.amount });
  await expect(payButton(page)).toBeEnabled();

  await fillSandboxCard(page, CARDS.success);
  await payButton(page).click();
  await page.waitForURL((url) => url.pathname === '/success');
  await expect(page.getByRole('heading', { level: 1, name: welcome })).toBeVisible();
});

test('a code used up between its quote and the order: the message, the full price and a card form at that price', async ({
  page,
  baseURL,
}) => {
  const coupon = code('LAST');
  await seedCoupon({ code: coupon, percentOff: 20, planIds: ['full-payment'] });
  await withDb((client) => client.query(`UPDATE coupons SET max_redemptions = 1 WHERE code = $1`, [coupon]));
  // Another buyer opens a checkout with the last redemption just before this checkout's order is created.
  let taken = false;
  await page.route('**/api/create-payment-intent', async (route) => {
    if (!taken) {
      taken = true;
      const other = { email: uniqueEmail('coupon-rival'), name: 'Rival', source: 'clear', plan: fullPayment.name, amount: fullPayment.amount, coupon };
      const answer = await fetch(new URL('/api/create-payment-intent', baseURL), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(other),
      });
      expect(answer.status).toBe(200);
    }
    await route.continue();
  });
  await page.goto(checkoutUrl({ plan: 'full-payment', email: uniqueEmail('coupon-race'), name: NAME, coupon }));

  const summary = page.getByTestId('order-summary');
  await expect(summary.getByTestId('coupon-message')).toHaveText('This coupon code has been used up.');
  await expect(summary.getByTestId('summary-amount')).toHaveText(priceOf('full-payment'));
  await expect(payButton(page)).toHaveText(`Pay ${priceOf('full-payment')}`);
  await expect(payButton(page)).toBeEnabled();
});

const isQuote = (url: URL) => url.pathname === '/api/coupons/quote';

test.describe('screen: coupon checks refused by the server (stubbed)', () => {
  test("too many codes tried: the server's message, the full price and a card form at that price", async ({ page }) => {
    await page.route(isQuote, (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({
          statusCode: 429,
          error: 'Too Many Requests',
          message: 'Too many coupon codes tried from this device. Please wait a minute and try again.',
        }),
      }),
    );
    await page.goto(checkoutUrl({ plan: 'full-payment', email: uniqueEmail('coupon-flood'), name: NAME, coupon: 'GUESS1' }));
    const summary = page.getByTestId('order-summary');
    await expect(summary.getByTestId('coupon-message')).toHaveText(
      'Too many coupon codes tried from this device. Please wait a minute and try again.',
    );
    await expect(summary.getByTestId('summary-amount')).toHaveText(priceOf('full-payment'));
    await expect(payButton(page)).toHaveText(`Pay ${priceOf('full-payment')}`);
    await expect(payButton(page)).toBeEnabled();
  });

  test('a check that fails without a message says the coupon could not be checked', async ({ page }) => {
    await page.route(isQuote, (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad gateway</h1>' }));
    await page.goto(checkoutUrl({ plan: 'full-payment', email: uniqueEmail('coupon-down'), name: NAME, coupon: 'ANY' }));
    await expect(page.getByTestId('order-summary').getByTestId('coupon-message')).toHaveText(
      'The coupon could not be checked. Please try again.',
    );
  });
});
