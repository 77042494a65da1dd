import { expect, test } from '@playwright/test';
import { OFFERS, planOf } from '@contracts/plans';
import { site } from '@contracts/site/site';
import {
  answerSandboxAuthentication,
  CARDS,
  checkoutUrl,
  fillSandboxCard,
  followHandOffLink,
  handOffOf,
  payButton,
  pretendStripeIsConfigured,
  recordStripeRequests,
  stubSandboxCheckout,
} from './support/checkout';
import { expectNoAxeViolations } from './support/axe';
import { openLanding, uniqueEmail } from './support/landing';
import { pageCopy, priceOf } from './support/seller-site';

const NAME = 'Avery Example';
const STANDARD = planOf('standard');
const success = pageCopy('success');

test.describe('screen: /checkout on a stubbed API answer', () => {
  test('shows the order, the customer and the secure notes for the standard plan', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await stubSandboxCheckout(page);
    await page.goto(checkoutUrl({ plan: 'standard', email: 'avery@example.com', name: NAME }));
    await expect(page.getByRole('heading', { level: 1, name: 'Complete Your Order' })).toBeFocused();
    await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('heading', { level: 2, name: 'Payment Details' })).toBeVisible();
    await expect(payButton(page)).toHaveText(`Pay ${priceOf('standard')}`);
    await expect(payButton(page)).toBeEnabled();
    await expect(page.getByText('Secure 256-bit SSL encrypted payment')).toBeVisible();
    await expect(page.getByText('We do not store credit card details')).toBeVisible();

    const summary = page.getByTestId('order-summary');
    await expect(summary.getByRole('heading', { name: 'Order Summary' })).toBeVisible();
    await expect(summary.getByTestId('summary-plan')).toHaveText(STANDARD.name);
    await expect(summary.getByTestId('summary-price')).toHaveText(STANDARD.displayText);
    await expect(summary.getByTestId('summary-amount')).toHaveText(priceOf('standard'));
    await expect(summary.getByTestId('summary-unlocks').locator('li')).toHaveText([
      'All program content',
      'Weekly Q&A calls every Saturday at 4 PM ET',
      'Private community access',
      site.guarantee.name,
    ]);
    await expect(summary).toContainText('100% Secure Checkout');
    await expect(summary.getByTestId('customer')).toContainText('Customer Email:avery@example.com');
    await expect(summary.getByTestId('customer')).toContainText(`Customer Name:${NAME}`);
    await expect(page.getByTestId('missing-warning')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    const sandbox = page.getByTestId('sandbox-card-form');
    await expect(sandbox).toContainText('Test mode');
    for (const card of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0000 0000 9995', '4000 0025 0000 3155']) {
      await expect(sandbox).toContainText(card);
    }
    await expect(sandbox.getByLabel('Postal code (optional)')).toBeVisible();
  });

  test('labels the pay button by plan and lists the Level Two contents for blackcard-vip', async ({ page }) => {
    await stubSandboxCheckout(page);
    await page.goto(checkoutUrl({ plan: 'payment-plan', email: 'a@example.com', name: NAME }));
    await expect(payButton(page)).toHaveText(`Payment 1 of ${planOf('payment-plan').instalments} - ${priceOf('payment-plan')}`);

    await page.goto(checkoutUrl({ plan: '2-month', email: 'a@example.com', name: NAME }));
    await expect(payButton(page)).toHaveText(`Pay ${priceOf('2-month')}`);

    await page.goto(checkoutUrl({ plan: 'blackcard-vip', email: 'a@example.com', name: NAME }));
    await expect(payButton(page)).toHaveText(`Pay ${priceOf('blackcard-vip')}`);
    await expect(page.getByTestId('summary-plan')).toHaveText(planOf('blackcard-vip').name);
    await expect(page.getByTestId('summary-unlocks')).toContainText('103-video course (11 modules, 103 lessons)');
    await expect(page.getByTestId('summary-unlocks')).toContainText("A path toward earning your official 'Black Card'");

    // An unknown plan falls back to standard.
    await page.goto(checkoutUrl({ plan: 'gold', email: 'a@example.com', name: NAME }));
    await expect(payButton(page)).toHaveText(`Pay ${priceOf('standard')}`);
  });

  test('shows "Initializing secure payment..." and keeps the button disabled while the intent is created', async ({ page }) => {
    await page.route('**/api/payments/config', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ provider: 'sandbox', publishableKey: null }) }),
    );
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/create-setup-intent', async (route) => {
      await held;
      await route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ clientSecret: 'seti_stub_secret_stub' }),
      });
    });
    await page.goto(checkoutUrl({ plan: 'standard', email: 'a@example.com', name: NAME }));
    await expect(page.getByText('Initializing secure payment...')).toBeVisible();
    await expect(payButton(page)).toBeDisabled();
    release();
    await expect(page.getByTestId('sandbox-card-form')).toBeVisible();
    await expect(payButton(page)).toBeEnabled();
  });

  test('without e-mail and name: "Not provided", the warning, and the Missing Information toast instead of paying', async ({ page }) => {
    await stubSandboxCheckout(page);
    const intentRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/create-')) intentRequests.push(request.url());
    });
    await page.goto('/checkout');
    await expect(page.getByTestId('customer-email')).toHaveText('Not provided');
    await expect(page.getByTestId('customer-name')).toHaveText('Not provided');
    await expect(page.getByTestId('missing-warning')).toHaveText(
      'Missing information? Please go back to the home page and fill in the form.',
    );
    await expect(payButton(page)).toBeEnabled();
    await payButton(page).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Missing Information' });
    await expect(toast).toContainText('Email and name are required. Please go back and fill in the form.');
    await expect(page).toHaveURL(/\/checkout$/);
    expect(intentRequests).toEqual([]);
  });

  test('a setup intent failure shows the Setup Error toast with the server message', async ({ page }) => {
    await stubSandboxCheckout(page);
    await page.route('**/api/create-setup-intent', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 429, message: 'Too many payment attempts. Please wait a minute.' }),
      }),
    );
    await page.goto(checkoutUrl({ plan: 'standard', email: 'a@example.com', name: NAME }));
    const toast = page.getByRole('alert').filter({ hasText: 'Setup Error' });
    await expect(toast).toContainText('Too many payment attempts. Please wait a minute.');
    await expect(payButton(page)).toBeDisabled();
  });

  test('a payment intent failure without a readable message shows Payment Error with the fallback', async ({ page }) => {
    await stubSandboxCheckout(page);
    await page.route('**/api/create-payment-intent', (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad gateway</h1>' }),
    );
    await page.goto(checkoutUrl({ plan: '6-month', email: 'a@example.com', name: NAME }));
    await expect(page.getByRole('alert').filter({ hasText: 'Payment Error' })).toContainText('Failed to initialize payment');
  });

  test('a blocked provider script shows the Payment Setup Error screen with Reload Page', async ({ page }) => {
    await pretendStripeIsConfigured(page);
    await page.route('**/api/create-setup-intent', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ clientSecret: 'seti_x_secret_y' }) }),
    );
    const stripeRequests: string[] = [];
    await page.route(/^https:\/\/js\.stripe\.com\//, (route) => {
      stripeRequests.push(route.request().url());
      return route.abort('blockedbyclient');
    });
    await page.goto(checkoutUrl({ plan: 'standard', email: 'a@example.com', name: NAME }));
    const screen = page.getByTestId('payment-setup-error');
    await expect(screen.getByRole('heading', { level: 1, name: 'Payment Setup Error' })).toBeVisible();
    await expect(screen).toContainText('Unable to load payment system. Please try again.');
    expect(stripeRequests.length).toBeGreaterThan(0);
    const reload = page.waitForEvent('load');
    await screen.getByRole('button', { name: 'Reload Page' }).click();
    await reload;
    await expect(page.getByTestId('payment-setup-error')).toBeVisible();
  });

  test('the checkout screen has no axe violations at 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await stubSandboxCheckout(page);
    await page.goto(checkoutUrl({ plan: 'standard', email: 'a@example.com', name: NAME }));
    await expect(page.getByTestId('sandbox-card-form')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: 'test-results/screenshots/checkout-390.png', fullPage: true });
  });
});

test.describe('checkout with the sandbox provider (real API)', () => {
  test('landing lead → checkout → 4242 → upgrade offer → 2-month → pay → welcome, without touching Stripe', async ({ page }) => {
    const stripeRequests = recordStripeRequests(page);
    const email = uniqueEmail('journey');
    await openLanding(page);
    const form = page.getByTestId('lead-form');
    await form.getByLabel('Name (Optional)').fill(NAME);
    await form.getByLabel('Email Address *').fill(email);
    // Checkout creates its intent as soon as it opens, so each intent listener is set up before the navigation.
    const setupRequest = page.waitForRequest('**/api/create-setup-intent');
    await form.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout');

    await fillSandboxCard(page, CARDS.success);
    expect((await setupRequest).postDataJSON()).toMatchObject({ email, name: NAME, source: site.brand.programName });
    const confirm = page.waitForRequest('**/api/confirm-subscription');
    await payButton(page).click();
    expect((await confirm).postDataJSON()).toMatchObject({
      email,
      name: NAME,
      amount: STANDARD.amount,
      plan: STANDARD.name,
      source: site.brand.programName,
    });

    await page.waitForURL((url) => url.pathname === '/success');
    const successUrl = new URL(page.url());
    expect(successUrl.searchParams.get('subscription_id')).toMatch(/^sub_/);
    expect(successUrl.searchParams.get('plan')).toBe('standard');
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Confirmed!' })).toBeVisible();
    await expect(page.getByText(success.confirmed.body)).toBeVisible();
    const offer = page.getByTestId('upgrade-offer');
    await expect(offer).toContainText('ONE-TIME UPGRADE OFFER');
    await expect(offer.locator('li')).toHaveCount(OFFERS.upgrade.length);

    const paymentRequest = page.waitForRequest('**/api/create-payment-intent');
    const upgrade = await followHandOffLink(page, offer.getByRole('link', { name: `Start with ${priceOf('2-month')}/month` }));
    expect(upgrade).toBe(`/checkout?${new URLSearchParams({ plan: '2-month', email, name: NAME })}`);

    // This browser has just paid: its saved card is offered in one click (tests/e2e/one-click.spec.ts);
    // the buyer may still type a card, and the intent is made only then.
    await page.getByRole('button', { name: 'Use a different card' }).click();
    await fillSandboxCard(page, CARDS.success);
    expect((await paymentRequest).postDataJSON()).toMatchObject({
      amount: planOf('2-month').amount,
      plan: planOf('2-month').name,
      email,
      name: NAME,
    });
    await expect(payButton(page)).toHaveText(`Pay ${priceOf('2-month')}`);
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/success' && (url.searchParams.get('payment_intent') ?? '').startsWith('pi_'));
    await expect(page.getByRole('heading', { level: 1, name: success.welcome.heading })).toBeVisible();
    await expect(page.getByTestId('upgrade-offer')).toHaveCount(0);
    expect(stripeRequests).toEqual([]);
  });

  test('a declined card shows Payment Failed and stays on checkout, ready for another card', async ({ page }) => {
    await page.goto(checkoutUrl({ plan: '6-month', email: uniqueEmail('declined'), name: NAME }));
    await fillSandboxCard(page, CARDS.declined);
    await payButton(page).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Payment Failed' });
    await expect(toast).toContainText('Your card was declined.');
    await expect(page).toHaveURL(/\/checkout\?/);
    await expect(payButton(page)).toHaveText(`Pay ${priceOf('6-month')}`);
    await expect(payButton(page)).toBeEnabled();

    // The same intent takes a good card afterwards, as Stripe's does.
    await fillSandboxCard(page, CARDS.success);
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/success');
    await expect(page.getByRole('heading', { level: 1, name: success.welcome.heading })).toBeVisible();
  });

  test('a subscription card that needs authentication: completed → subscription confirmed', async ({ page }) => {
    await page.goto(checkoutUrl({ plan: 'standard', email: uniqueEmail('auth-ok'), name: NAME }));
    await fillSandboxCard(page, CARDS.authentication);
    await payButton(page).click();
    await answerSandboxAuthentication(page, 'complete');
    await page.waitForURL((url) => url.pathname === '/success' && (url.searchParams.get('subscription_id') ?? '').startsWith('sub_'));
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Confirmed!' })).toBeVisible();
  });

  test('a subscription card that needs authentication: failed → Payment Setup Failed, back on a fresh checkout', async ({ page }) => {
    const email = uniqueEmail('auth-fail');
    await page.goto(checkoutUrl({ plan: 'standard', email, name: NAME }));
    await fillSandboxCard(page, CARDS.authentication);
    await payButton(page).click();
    await answerSandboxAuthentication(page, 'fail');
    await expect(page.getByRole('alert').filter({ hasText: 'Payment Setup Failed' })).toBeVisible();
    await page.waitForURL((url) => url.pathname === '/checkout' && !url.searchParams.has('setup_intent'));
    expect(await handOffOf(page)).toEqual({ plan: 'standard', email, name: NAME, source: site.brand.programName });
    await fillSandboxCard(page, CARDS.success);
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/success');
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Confirmed!' })).toBeVisible();
  });

  test('a one-time card that needs authentication: completed → welcome; failed → Payment Incomplete with its status', async ({ page }) => {
    const email = uniqueEmail('auth-one-time');
    await page.goto(checkoutUrl({ plan: 'full-payment', email, name: NAME }));
    await fillSandboxCard(page, CARDS.authentication);
    await payButton(page).click();
    await answerSandboxAuthentication(page, 'complete');
    await page.waitForURL((url) => url.pathname === '/success' && url.searchParams.get('redirect_status') === 'succeeded');
    expect(new URL(page.url()).searchParams.get('plan')).toBe('full-payment');
    await expect(page.getByRole('heading', { level: 1, name: success.welcome.heading })).toBeVisible();

    await page.goto(checkoutUrl({ plan: 'full-payment', email, name: NAME }));
    await fillSandboxCard(page, CARDS.authentication);
    await payButton(page).click();
    await answerSandboxAuthentication(page, 'fail');
    await page.waitForURL((url) => url.pathname === '/success');
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Incomplete' })).toBeVisible();
    await expect(page.getByTestId('payment-status')).toHaveText(/^Status: (?!succeeded)/);
    const retry = await followHandOffLink(page, page.getByRole('link', { name: 'Try Again' }));
    expect(retry).toBe(`/checkout?${new URLSearchParams({ plan: 'full-payment', email, name: NAME })}`);
    await expect(page.getByTestId('customer-email')).toHaveText(email);
  });

  test('the invite token travels checkout → success → /blackcard-upsell under one name', async ({ page }) => {
    const email = uniqueEmail('token');
    const setupRequest = page.waitForRequest('**/api/create-setup-intent');
    await page.goto(
      checkoutUrl({ plan: 'standard', source: 'blackcard', token: 'invite-token-123', email, name: NAME, referral: 'partner-anna' }),
    );
    await fillSandboxCard(page, CARDS.success);
    expect((await setupRequest).postDataJSON()).toMatchObject({
      source: 'blackcard',
      blackcard_token: 'invite-token-123',
      referral: 'partner-anna',
    });
    await payButton(page).click();
    // /success gets the token as `token` (never `blackcard_token`), the one name it reads: it passes it on to Level Two.
    await page.waitForURL((url) => url.pathname === '/blackcard-upsell');
    const upsell = new URL(page.url());
    expect(upsell.searchParams.get('email')).toBe(email);
    expect(upsell.searchParams.get('name')).toBe(NAME);
    expect(upsell.searchParams.get('token')).toBe('invite-token-123');
    expect(upsell.searchParams.get('referral')).toBe('partner-anna');
  });
});
