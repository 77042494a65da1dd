import { expect, test, type Page } from '@playwright/test';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, planOf } from '@contracts/plans';
import { checkoutUrl, payButton } from './support/checkout';
import { watchCsp } from './support/csp';
import { withDb } from './support/db';
import { uniqueEmail } from './support/landing';
import { expectIslandPageCode, PAGE_JS_BUDGET_KIB, recordConsoleProblems, recordScripts } from './support/page-code';
import { serveStripeJsStandIn, standInRecord, STRIPE_JS_URL, type StandInAnswers } from './support/stripe-js-stand-in';

const NAME = 'Stripe Buyer';

function stripeModeUrl(): string {
  const url = process.env.E2E_STRIPE_MODE_URL;
  if (!url) throw new Error('E2E_STRIPE_MODE_URL is not set: run the browser tests through "npm test"');
  return url;
}

/**
 * Opens /checkout of the Stripe deployment (the real API against the Stripe fake, Stripe.js a
 * stand-in) and waits until the pay button is usable; resolves with the client secret the API
 * made for this checkout, read from its answer.
 */
async function openStripeCheckout(page: Page, plan: string, answers: StandInAnswers = {}) {
  const stripeJs = await serveStripeJsStandIn(page, answers);
  const intentPath = plan === 'full-payment' ? '/api/create-payment-intent' : '/api/create-setup-intent';
  const intentAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === intentPath);
  await page.goto(`${stripeModeUrl()}${checkoutUrl({ plan, email: uniqueEmail(`stripe-${plan}`), name: NAME })}`);
  const { clientSecret } = (await (await intentAnswer).json()) as { clientSecret: string };
  await expect(payButton(page)).toBeEnabled();
  return { clientSecret, stripeJs };
}

/**
 * Opens the Stripe checkout of `plan` and pays: Stripe.js is asked once to confirm the API's
 * intent with `method`, to come back to `returnPath` if the bank needs a redirect. Resolves with
 * the intent's client secret.
 */
async function payConfirming(page: Page, plan: string, method: 'confirmSetup' | 'confirmPayment', returnPath: '/checkout' | '/success') {
  const origin = new URL(stripeModeUrl()).origin;
  const { clientSecret, stripeJs } = await openStripeCheckout(page, plan);
  await payButton(page).click();
  await expect
    .poll(() => stripeJs.confirmations)
    .toEqual([{ method, clientSecret, redirect: 'if_required', returnUrl: expect.stringContaining(`${origin}${returnPath}?`) }]);
  return clientSecret;
}

test.describe('checkout with the Stripe provider (real API, Stripe fake, Stripe.js stand-in)', () => {
  test(`the Payment Element mounts with the API’s setup intent, within ${PAGE_JS_BUDGET_KIB} KiB of JavaScript and the CSP`, async ({
    page,
  }) => {
    // It waits for the network to go quiet to count every script: on a loaded machine that alone
    // has taken most of the default 30 s.
    test.setTimeout(60_000);
    const origin = new URL(stripeModeUrl()).origin;
    const scripts = recordScripts(page, origin);
    const problems = recordConsoleProblems(page);
    const violations = await watchCsp(page);

    const { clientSecret, stripeJs } = await openStripeCheckout(page, 'standard');
    await expect(page.locator('iframe[title="Secure payment input frame"]')).toBeVisible();
    expect(stripeJs.requested[0]).toBe(STRIPE_JS_URL);
    expect(await standInRecord(page)).toMatchObject({
      publishableKey: 'pk_test_fakekey',
      elementsClientSecrets: [clientSecret],
      created: [{ type: 'payment', layout: 'tabs' }],
      mounted: 1,
      confirmations: [],
    });
    await page.waitForLoadState('networkidle');
    expectIslandPageCode(scripts, '/checkout with the Stripe provider', /\.route-|\/spa-|screen-providers/);
    const totalKiB = scripts.reduce((sum, script) => sum + script.gzipBytes, 0) / 1024;
    test.info().annotations.push({ type: 'first-party JS, gzip KiB', description: totalKiB.toFixed(1) });
    expect(problems).toEqual([]);
    expect(violations).toEqual([]);
  });

  test('a subscription: paying confirms the API’s setup intent and goes to /success with the subscription', async ({ page }) => {
    await payConfirming(page, 'standard', 'confirmSetup', '/checkout');
    await page.waitForURL((url) => url.pathname === '/success' && url.searchParams.has('subscription_id'));
  });

  test('a one-time plan: paying confirms the API’s payment intent and goes to /success with it', async ({ page }) => {
    const clientSecret = await payConfirming(page, 'full-payment', 'confirmPayment', '/success');
    const paymentIntent = clientSecret.split('_secret_')[0];
    await page.waitForURL((url) => url.pathname === '/success' && url.searchParams.get('payment_intent') === paymentIntent);
  });

  test('a card Stripe declines shows Payment Failed with Stripe’s message and stays on checkout', async ({ page }) => {
    await openStripeCheckout(page, 'full-payment', { confirmPayment: { error: 'Your card was declined.' } });
    await payButton(page).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Payment Failed' });
    await expect(toast).toContainText('Your card was declined.');
    await expect(page).toHaveURL(/\/checkout\?/);
    await expect(payButton(page)).toBeEnabled();
  });

  test('a coupon’s new intent replaces the Payment Element: the old one is destroyed and paying confirms the new intent', async ({
    page,
  }) => {
    const coupon = `E2ESTRIPE${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.toUpperCase();
    await withDb((client) =>
      client.query(`INSERT INTO coupons (code, kind, percent_off, plan_ids) VALUES ($1, 'percent', 10, $2)`, [coupon, ['full-payment']]),
    );
    const { clientSecret: first, stripeJs } = await openStripeCheckout(page, 'full-payment');
    const newIntent = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/create-payment-intent');
    const summary = page.getByTestId('order-summary');
    await summary.getByRole('button', { name: 'Have a coupon?' }).click();
    await summary.getByLabel('Coupon code').fill(coupon);
    await summary.getByRole('button', { name: 'Apply' }).click();
    const { clientSecret: second } = (await (await newIntent).json()) as { clientSecret: string };
    expect(second).not.toBe(first);
    await expect(payButton(page)).toHaveText(
      `Pay ${formatMoney((toMinorUnits(planOf('full-payment').amount, CURRENCY) * 90) / 100, CURRENCY)}`,
    );
    await expect(payButton(page)).toBeEnabled();
    await expect(page.locator('iframe[title="Secure payment input frame"]')).toHaveCount(1);
    expect(await standInRecord(page)).toMatchObject({ elementsClientSecrets: [first, second], mounted: 2, destroyed: 1 });

    await payButton(page).click();
    await expect.poll(() => stripeJs.confirmations.map((confirmation) => confirmation.clientSecret)).toEqual([second]);
  });
});
