import { test as base, expect, type Page } from '@playwright/test';
import { analyticsSiteFixture, type AnalyticsSite } from './support/analytics-site';
import { checkoutUrl, pretendStripeIsConfigured } from './support/checkout';
import { watchCsp, type Violation } from './support/csp';
import { uniqueEmail } from './support/landing';

/** Third parties never reach the network: scripts get an empty stub, anything else is aborted. A request CSP blocks never gets here. */
async function stubThirdParties(page: Page): Promise<string[]> {
  const requested: string[] = [];
  await page.route(
    (url) => url.protocol.startsWith('http') && url.hostname !== '127.0.0.1',
    (route) => {
      requested.push(route.request().url());
      if (route.request().resourceType() === 'script')
        return route.fulfill({ contentType: 'text/javascript', body: '/* third-party stub */' });
      return route.abort();
    },
  );
  return requested;
}

/** Loads `path` and lets it settle (lazy routes, API reads, deferred scripts). */
async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
}

const test = base.extend<{ violations: Violation[] }>({
  violations: async ({ page }, use) => {
    const violations = await watchCsp(page);
    await stubThirdParties(page);
    await use(violations);
  },
});

test.describe('Content-Security-Policy: no violation on any page', () => {
  let accessToken: string;

  test.beforeAll(async ({ request }) => {
    const gate = await request.post('/api/invitation-gate', { data: { name: 'Csp Visitor', email: uniqueEmail('csp') } });
    expect(gate.status()).toBe(201);
    accessToken = ((await gate.json()) as { accessToken: string }).accessToken;
    expect(accessToken).toBeTruthy();
  });

  /** Every route of the funnel; {token} is a live access token for the invite page. */
  const PAGES: Array<[string, string]> = [
    ['the landing page', '/'],
    ['the invitation gate', '/invitation'],
    ['the invite page with a valid token', '/blackcard?token={token}'],
    ['the invite upsell', '/blackcard-upsell?visitor=csp'],
    ['checkout for a subscription', checkoutUrl({ plan: 'standard', email: 'csp@example.com', name: 'Csp Visitor' })],
    ['checkout for a one-time plan', checkoutUrl({ plan: 'full-payment', email: 'csp@example.com', name: 'Csp Visitor' })],
    ['the success page', '/success?payment_intent=pi_doesnotexist&plan=2-month'],
    ['the upsell', '/upsell?plan=standard&email=csp%40example.com&name=Csp'],
    ['the account page with a used-up sign-in link', `/account?token=${'x'.repeat(43)}`],
    ['the admin sign-in', '/admin/login'],
    ['a page that does not exist', '/no-such-page'],
  ];

  for (const [name, path] of PAGES) {
    test(name, async ({ page, violations }) => {
      await visit(page, path.replace('{token}', accessToken));
      expect(violations).toEqual([]);
    });
  }

  test('the landing page after a lead is submitted (toast, scroll and focus islands)', async ({ page, violations }) => {
    await visit(page, '/');
    await expect(page.getByTestId('lead-submit')).toBeEnabled();
    await page.getByTestId('lead-submit').scrollIntoViewIfNeeded();
    await page
      .getByLabel(/e-?mail/i)
      .first()
      .fill(uniqueEmail('csp-lead'));
    await page.getByTestId('lead-submit').click();
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
  });

  test.describe('screen: with a stubbed Stripe configuration', () => {
    test('checkout with Stripe configured: Stripe.js is allowed to load', async ({ page, violations }) => {
      await pretendStripeIsConfigured(page);
      // Waited for by name, not by network idle: on a busy machine hydration and the lazy provider
      // chunk can leave the network quiet for longer than idle's 500 ms before Stripe.js is asked for.
      const stripeRequested = page.waitForRequest((r) => new URL(r.url()).hostname === 'js.stripe.com', { timeout: 15_000 });
      await visit(page, checkoutUrl({ plan: 'standard', email: 'csp@example.com', name: 'Csp Visitor' }));
      await stripeRequested;
      await page.waitForLoadState('networkidle');
      expect(violations).toEqual([]);
    });
  });
});

/** The same build as a site with GA4 and the Meta pixel ids set at run time, under its own server's CSP. */
const analyticsTest = base.extend<{ violations: Violation[]; thirdParties: string[] }, { analyticsSite: AnalyticsSite }>({
  analyticsSite: analyticsSiteFixture(),
  violations: async ({ page }, use) => use(await watchCsp(page)),
  thirdParties: async ({ page }, use) => use(await stubThirdParties(page)),
});

analyticsTest(
  'with analytics configured and consent given, GA4 and the Meta pixel load without a CSP violation',
  async ({ page, analyticsSite, violations, thirdParties }) => {
    await page.goto(`${analyticsSite.url}/`);
    await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Accept' }).click();
    await page.waitForLoadState('networkidle');
    await page.goto(`${analyticsSite.url}/invitation`);
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
    expect(thirdParties.some((url) => url.startsWith('https://www.googletagmanager.com/'))).toBe(true);
    expect(thirdParties.some((url) => url.startsWith('https://connect.facebook.net/'))).toBe(true);
  },
);
