import { expect, test, type Page, type Request } from '@playwright/test';
import { CURRENCY, planOf } from '@contracts/plans';
import {
  ANALYTICS_CONSENT_KEY,
  analyticsVendorCalls,
  serveAnalyticsSiteOn,
  analyticsSiteFixture,
  stubAnalyticsVendors,
  type AnalyticsSite,
} from './support/analytics-site';
import { CARDS, checkoutUrl, fillSandboxCard, payButton } from './support/checkout';
import { expectNoAxeViolations } from './support/axe';
import { uniqueEmail } from './support/landing';
import { settle } from './support/page-clock';
import { pageCopy, priceOf } from './support/seller-site';

const NAME = 'Avery Example';
const success = pageCopy('success');

/** Pays through the real sandbox and returns the /success URL checkout led to. */
async function payThroughSandbox(page: Page, plan: string, email: string): Promise<URL> {
  await page.goto(checkoutUrl({ plan, email, name: NAME }));
  await fillSandboxCard(page, CARDS.success);
  await payButton(page).click();
  await page.waitForURL((url) => url.pathname === '/success');
  return new URL(page.url());
}

test.describe('/success views without a payment id', () => {
  test("final=true shows You're All Set! with the program link opening in a new tab", async ({ page }) => {
    await page.goto('/success?plan=standard&email=a%40example.com&name=Avery&source=blackcard&final=true');
    await expect(page.getByRole('heading', { level: 1, name: "You're All Set!" })).toBeFocused();
    await expect(page.getByText("You're now part of the VIP community. Check your email for next steps.")).toBeVisible();
    const access = page.getByRole('link', { name: /Access Your Program/ });
    await expect(access).toHaveAttribute('target', '_blank');
    await expect(access).toHaveAttribute('rel', /noopener/);
    await expect(access).toHaveAttribute('href', /^https:\/\//);
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  test('no id and not final: Payment Verification Failed', async ({ page }) => {
    await page.goto('/success?plan=standard');
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Verification Failed' })).toBeVisible();
    await expect(page.getByText("We couldn't verify your payment. Please contact support if you were charged.")).toBeVisible();
    await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });

  test('an unknown id is verified 4 times (3 retries, 1 s apart) behind the loading view, then fails', async ({ page }) => {
    const requests: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/verify-payment/pi_doesnotexist') requests.push(request);
    });
    await page.goto('/success?payment_intent=pi_doesnotexist&plan=2-month');
    await expect(page.getByRole('heading', { level: 1, name: 'Verifying Payment...' })).toBeVisible();
    await expect(page.getByText('Please wait while we confirm your purchase.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Verification Failed' })).toBeVisible({ timeout: 10_000 });
    expect(requests).toHaveLength(4);
    // The browser's own start times: the runner's clock adds the jitter of event delivery.
    const attempts = requests.map((request) => request.timing().startTime);
    for (let index = 1; index < attempts.length; index += 1) expect(attempts[index] - attempts[index - 1]).toBeGreaterThanOrEqual(900);
  });
});

/** A verification answer in the contract's shape, for rules the sandbox cannot stage (e.g. a stored referral): a stub of our API, `screen:` tests only. */
async function answerVerification(
  page: Page,
  kind: 'payment' | 'subscription',
  body: Record<string, unknown>,
  /** The answer waits for this first, when given. */
  held?: Promise<void>,
): Promise<void> {
  await page.route(`**/api/verify-${kind}/*`, async (route) => {
    await held;
    await route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        amount: planOf('standard').amount,
        customer_email: null,
        customer_name: null,
        referral: null,
        plan: 'standard',
        purchase_event_id: 'evt_1',
        ...body,
      }),
    });
  });
}

test.describe('screen: /success rules on a stubbed verification answer', () => {
  test("invite funnel, standard plan, not final: straight on to /blackcard-upsell with the result's e-mail and referral and the token", async ({
    page,
  }) => {
    await answerVerification(page, 'subscription', {
      status: 'active',
      customer_email: 'server@example.com',
      customer_name: 'Server Name',
      referral: 'from-result',
    });
    await page.goto(
      '/success?subscription_id=sub_1&plan=standard&email=query%40example.com&name=Query&source=blackcard&token=tok_9&referral=from-query',
    );
    await page.waitForURL((url) => url.pathname === '/blackcard-upsell');
    const url = new URL(page.url());
    expect(url.search).toBe('?email=server%40example.com&name=Server+Name&referral=from-result&token=tok_9');
  });

  test('any other status: Payment Incomplete with the status and Try Again to checkout with plan, email and name', async ({ page }) => {
    await answerVerification(page, 'payment', { status: 'processing', plan: '6-month', amount: planOf('6-month').amount });
    await page.goto('/success?payment_intent=pi_1&plan=6-month&email=a%40example.com&name=Avery');
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Incomplete' })).toBeVisible();
    await expect(page.getByText('Your payment was not completed successfully.')).toBeVisible();
    await expect(page.getByTestId('payment-status')).toHaveText('Status: processing');
    await expect(page.getByRole('link', { name: 'Try Again' })).toHaveAttribute(
      'href',
      '/checkout?plan=6-month&email=a%40example.com&name=Avery',
    );
    await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });

  test('final=true with a paid standard plan skips both the offer and the invite redirect', async ({ page }) => {
    await answerVerification(page, 'subscription', { status: 'active' });
    await page.goto('/success?subscription_id=sub_2&plan=standard&source=blackcard&final=true');
    await expect(page.getByRole('heading', { level: 1, name: success.welcome.heading })).toBeVisible();
    await expect(page).toHaveURL(/\/success\?/);
  });

  test('the confetti waits until the loaded page is idle, so it never lengthens the task that shows the payment', async ({ page }) => {
    const confetti = page.locator('canvas.success__confetti');
    const chunks: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/confetti[^/]*\.js$/.test(new URL(request.url()).pathname)) chunks.push(request.url());
    });
    await answerVerification(page, 'subscription', { status: 'active' });
    // A first visit finds the library's chunk.
    await page.goto('/success?subscription_id=sub_idle1&plan=standard');
    await expect(confetti).toHaveCount(1);
    expect(chunks).toHaveLength(1);

    // Then the browser's idle callbacks run only when the test says so, and the library is already
    // evaluated in the page: nothing but waiting for idle time can keep the canvas away.
    await page.addInitScript(() => {
      const held = new Map<number, IdleRequestCallback>();
      let last = 0;
      window.requestIdleCallback = (callback) => (held.set(++last, callback), last);
      window.cancelIdleCallback = (handle) => void held.delete(handle);
      const runIdleCallbacks = () => {
        const due = [...held.values()];
        held.clear();
        for (const callback of due) callback({ didTimeout: false, timeRemaining: () => 50 });
      };
      Object.assign(window, { runIdleCallbacks });
    });
    await page.goto('/success?subscription_id=sub_idle2&plan=standard');
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Confirmed!' })).toBeFocused();
    await page.evaluate((url) => import(url).then(() => undefined), chunks[0]);
    await settle(page);
    // Now, not eventually: a canvas that came and went would pass a retrying assertion.
    expect(await confetti.count()).toBe(0);

    // Idle time: the library's turn, then (idle again) the first burst's.
    await expect
      .poll(async () => {
        await page.evaluate(() => (window as unknown as { runIdleCallbacks(): void }).runIdleCallbacks());
        await settle(page);
        return confetti.count();
      })
      .toBe(1);
  });

  test('the offer and the welcome view have no axe violations at 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await answerVerification(page, 'subscription', { status: 'active', customer_email: 'a@example.com', customer_name: 'Avery' });
    await page.goto('/success?subscription_id=sub_3&plan=standard');
    await expect(page.getByTestId('upgrade-offer')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: 'test-results/screenshots/success-offer-390.png', fullPage: true });
    await page.getByRole('button', { name: success.offer.decline }).click();
    await expect(page.getByTestId('success-welcome')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: 'test-results/screenshots/success-welcome-390.png', fullPage: true });
  });
});

/** The site with GA4 and Meta pixel ids (the server under test has none, so a purchase reaches no vendor): the same build. */
const analyticsTest = test.extend<object, { analyticsSite: AnalyticsSite }>({
  analyticsSite: analyticsSiteFixture(),
});

interface PurchaseCalls {
  ga4: unknown[][];
  meta: unknown[][];
}

/**
 * The purchase calls this document handed to GA4 (gtag 'event' 'purchase') and to the Meta pixel
 * (fbq 'track' 'Purchase'), read once no more can come: the confetti is up (it starts in the
 * effect pass that tracks the purchase, after it) and both vendors hold this page's page view (so
 * a purchase tracked while their code was loading has been handed over too).
 */
async function purchaseCallsOfThisLoad(page: Page): Promise<PurchaseCalls> {
  await expect(page.locator('canvas')).toHaveCount(1);
  const isSuccessPageView = ([command, name, params]: unknown[]) =>
    (command === 'event' || command === 'track') &&
    (name === 'page_view' || name === 'PageView') &&
    (params as { page_path?: string } | undefined)?.page_path === '/success';
  await expect
    .poll(async () => {
      const { gtag, fbq } = await analyticsVendorCalls(page);
      return [gtag.some(isSuccessPageView), fbq.some(isSuccessPageView)];
    })
    .toEqual([true, true]);
  const { gtag, fbq } = await analyticsVendorCalls(page);
  return {
    ga4: gtag.filter(([command, name]) => command === 'event' && name === 'purchase'),
    meta: fbq.filter(([command, name]) => command === 'track' && name === 'Purchase'),
  };
}

test.describe('/success views driven by real verification (sandbox)', () => {
  test('confirmed subscription: the offer, confetti, and "No thanks" leading to the welcome view', async ({ page }) => {
    const email = uniqueEmail('offer');
    await payThroughSandbox(page, 'standard', email);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Confirmed!' })).toBeFocused();
    await expect(page.locator('canvas')).toHaveCount(1);
    const offer = page.getByTestId('upgrade-offer');
    for (const [plan, label] of [
      ['6-month', `Start with ${priceOf('6-month')}/month`],
      ['2-month', `Start with ${priceOf('2-month')}/month`],
      ['full-payment', `Pay ${priceOf('full-payment')} now`],
    ] as const) {
      await expect(offer.getByRole('link', { name: label })).toHaveAttribute(
        'href',
        `/checkout?${new URLSearchParams({ plan, email, name: NAME })}`,
      );
    }
    await page.getByRole('button', { name: success.offer.decline }).click();
    await expect(page.getByTestId('upgrade-offer')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: success.welcome.heading })).toBeFocused();
    for (const text of ['Check Your Email', 'Join the Weekly Q&A', 'Access Your Course', 'Download the App', 'Join the Community']) {
      await expect(page.getByRole('heading', { name: text })).toBeVisible();
    }
    const register = page.getByRole('link', { name: /Register Your Account Now/ });
    await expect(register).toHaveAttribute('target', '_blank');
    await expect(register).toHaveAttribute('rel', /noopener/);
    // The confetti's canvas goes away once the 3 s celebration is over.
    await expect(page.locator('canvas')).toHaveCount(0, { timeout: 10_000 });
  });

  analyticsTest(
    'the intent id is taken from payment_intent_client_secret alone, and reloading tracks the purchase once',
    async ({ page, baseURL, analyticsSite }) => {
      // The analytics site's pages on the server's own origin, every /api/ request to it; consent
      // given and the vendors' scripts stubbed, so every call the page makes to them stays countable.
      const origin = new URL(String(baseURL)).origin;
      await serveAnalyticsSiteOn(page, origin, analyticsSite);
      await stubAnalyticsVendors(page, new URL(origin).hostname);
      await page.addInitScript((key) => localStorage.setItem(key, 'granted'), ANALYTICS_CONSENT_KEY);
      const welcome = page.getByRole('heading', { level: 1, name: success.welcome.heading });

      const paid = await payThroughSandbox(page, '2-month', uniqueEmail('secret'));
      const id = paid.searchParams.get('payment_intent');
      expect(id).toMatch(/^pi_/);
      // The page the payment landed on verifies the same id: let it finish before counting requests.
      await expect(welcome).toBeVisible();
      const loads = [await purchaseCallsOfThisLoad(page)];
      const verified: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/verify-payment/')) verified.push(new URL(request.url()).pathname);
      });
      await page.goto(`/success?payment_intent_client_secret=${id}_secret_abc123&plan=2-month`);
      await expect(welcome).toBeVisible();
      expect(verified).toEqual([`/api/verify-payment/${id}`]);
      loads.push(await purchaseCallsOfThisLoad(page));
      await page.reload();
      await expect(welcome).toBeVisible();
      loads.push(await purchaseCallsOfThisLoad(page));

      // One purchase per vendor over the landing, the secret-only address and its reload.
      const ga4 = loads.flatMap((load) => load.ga4);
      const meta = loads.flatMap((load) => load.meta);
      expect(ga4, 'GA4 purchase events over the three loads').toHaveLength(1);
      expect(meta, 'Meta pixel Purchase events over the three loads').toHaveLength(1);
      expect(loads[0].ga4, 'tracked on the page the payment landed on').toHaveLength(1);
      expect(ga4[0][2]).toMatchObject({ transaction_id: id, value: planOf('2-month').amount, currency: CURRENCY });
      expect(meta[0][2]).toMatchObject({ transaction_id: id, value: planOf('2-month').amount, currency: CURRENCY });
    },
  );

  test('no confetti for a visitor who prefers reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await payThroughSandbox(page, '6-month', uniqueEmail('motion'));
    await expect(page.getByRole('heading', { level: 1, name: success.welcome.heading })).toBeVisible();
    await page.waitForTimeout(500);
    await expect(page.locator('canvas')).toHaveCount(0);
  });
});
