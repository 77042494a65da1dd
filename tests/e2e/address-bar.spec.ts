import { test as base, expect, type Page } from '@playwright/test';
import {
  ANALYTICS_CONSENT_KEY,
  analyticsSiteFixture,
  firstSeenLocations,
  hitsCarrying,
  reportedLocation,
  serveAnalyticsSiteOn,
  serveVendorStandIns,
  type AnalyticsSite,
  type VendorHit,
  type VendorStandIns,
} from './support/analytics-site';
import { CARDS, checkoutUrl, fillSandboxCard, payButton, PERSONAL_PARAMS } from './support/checkout';
import { uniqueEmail } from './support/landing';
import { pageCopy, priceOf } from './support/seller-site';

/**
 * E-mail, name and invite token arrive at /checkout and /success in the query string (the spec's
 * links keep them there), but never stay in the address bar, where analytics and pixel scripts
 * read them. The analytics site's pages run on the server's own origin with consent given; the GA4 and
 * Meta pixel scripts are stand-ins that report the page's address and referrer as the real ones do.
 */
const test = base.extend<{ vendors: VendorStandIns }, { analyticsSite: AnalyticsSite }>({
  analyticsSite: analyticsSiteFixture(),
  vendors: async ({ page, baseURL, analyticsSite }, use) => {
    const origin = new URL(String(baseURL)).origin;
    await serveAnalyticsSiteOn(page, origin, analyticsSite);
    const vendors = await serveVendorStandIns(page, new URL(origin).hostname);
    await page.addInitScript((key) => localStorage.setItem(key, 'granted'), ANALYTICS_CONSENT_KEY);
    await use(vendors);
  },
});

function buyer(label: string) {
  return { email: uniqueEmail(label), name: `Quinn ${label}`, token: `tok-${label}-${Date.now()}` };
}

/** Which of e-mail, name and token an address holds. */
function personalIn(url: URL): string[] {
  return PERSONAL_PARAMS.filter((name) => url.searchParams.has(name));
}

/** The address bar holds `path` with `params`, and none of e-mail, name or token. */
async function expectAddress(page: Page, path: string, params: Record<string, string | RegExp>): Promise<void> {
  const url = new URL(page.url());
  expect(url.pathname).toBe(path);
  expect(personalIn(url), url.href).toEqual([]);
  for (const [name, value] of Object.entries(params)) expect(url.searchParams.get(name)).toMatch(value);
}

function bothReportedFrom(vendors: VendorStandIns, path: string): boolean {
  return (['ga4', 'meta'] as const).every((vendor) =>
    vendors.hits.some((hit) => hit.vendor === vendor && reportedLocation(hit).pathname === path),
  );
}

/** Waits until both vendors have reported a hit from `path`, so the checks below have something to check. */
async function expectHitsFrom(vendors: VendorStandIns, path: string): Promise<void> {
  await expect.poll(() => bothReportedFrom(vendors, path), { timeout: 15_000 }).toBe(true);
}

/**
 * Holds our answer to `apiPath` until both vendor scripts run in the page and have reported from
 * `pagePath`: the page waits there instead of moving on at once, so the vendors see it as it is.
 */
async function holdUntilVendorsReport(page: Page, vendors: VendorStandIns, apiPath: string, pagePath: string): Promise<void> {
  const reported = async () =>
    Object.keys(await firstSeenLocations(page).catch(() => ({}))).length === 2 && bothReportedFrom(vendors, pagePath);
  await page.route(
    (url) => url.pathname.startsWith(apiPath),
    async (route) => {
      for (let waited = 0; !(await reported()) && waited < 15_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      await route.continue();
    },
  );
}

/**
 * Completes the sandbox's authentication step and loads the provider's return address, as the
 * browser does after the step's 303 answer. Loaded by the test itself: a redirect's follow-up
 * request escapes page.route, and would get the server's own pages instead of the analytics site's.
 */
async function completeAuthenticationAndReturn(page: Page): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith('/api/sandbox'));
  const form = page.locator('form', { has: page.locator('input[name="outcome"][value="complete"]') });
  const fields = Object.fromEntries(
    await Promise.all(
      ['client_secret', 'return_url', 'outcome'].map(async (name) => [name, await form.locator(`input[name="${name}"]`).inputValue()]),
    ),
  );
  const answer = await page.request.post('/api/sandbox/authenticate', { form: fields, maxRedirects: 0 });
  expect(answer.status()).toBe(303);
  await page.goto(answer.headers().location);
}

/** Hits from /checkout or /success (other pages of the funnel are not part of this guarantee). */
function checkoutAndSuccessHits(vendors: VendorStandIns): VendorHit[] {
  return vendors.hits.filter((hit) => ['/checkout', '/success'].includes(reportedLocation(hit).pathname));
}

/** Once both vendor scripts have run in this document: the address they first found was already clean. */
async function expectCleanFirstSight(page: Page, path: string): Promise<void> {
  await expect.poll(async () => Object.keys(await firstSeenLocations(page)).sort()).toEqual(['ga4', 'meta']);
  for (const href of Object.values(await firstSeenLocations(page))) {
    expect(new URL(href).pathname).toBe(path);
    expect(personalIn(new URL(href)), href).toEqual([]);
  }
}

test.describe('e-mail, name and token stay out of the address bar', () => {
  test('/checkout: gone from the address before any vendor runs, still used for the payment, kept over a reload', async ({
    page,
    vendors,
  }) => {
    const { email, name, token } = buyer('checkout');
    const intents: unknown[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/create-setup-intent') intents.push(request.postDataJSON());
    });
    await page.goto(checkoutUrl({ plan: 'standard', email, name, token, referral: 'partner-address' }));
    for (const load of [1, 2]) {
      await expectAddress(page, '/checkout', { plan: 'standard', referral: 'partner-address' });
      await expect(page.getByTestId('customer-email')).toHaveText(email);
      await expect(page.getByTestId('customer-name')).toHaveText(name);
      await expect.poll(() => intents.length).toBe(load);
      expect(intents[load - 1]).toMatchObject({ planId: 'standard', email, name, blackcard_token: token, referral: 'partner-address' });
      await expectHitsFrom(vendors, '/checkout');
      await expectCleanFirstSight(page, '/checkout');
      if (load === 1) await page.reload();
    }

    // On to /success inside the SPA (the router's replace carries them in the query string).
    await fillSandboxCard(page, CARDS.success);
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/success');
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Confirmed!' })).toBeVisible();
    await expectAddress(page, '/success', { subscription_id: /^sub_/, plan: 'standard', referral: 'partner-address' });
    // The spec's links keep their query strings.
    await expect(page.getByRole('link', { name: `Start with ${priceOf('6-month')}/month` })).toHaveAttribute(
      'href',
      `/checkout?${new URLSearchParams({ plan: '6-month', email, name })}`,
    );
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Confirmed!' })).toBeVisible();
    await expectAddress(page, '/success', { subscription_id: /^sub_/ });
    await expectHitsFrom(vendors, '/success');
    await expectCleanFirstSight(page, '/success');

    expect(hitsCarrying(vendors.hits, [email, name, token])).toEqual([]);
    expect(vendors.others).toEqual([]);
  });

  test("the provider's returns: full loads of /checkout and /success are cleaned, and the token still reaches the next step", async ({
    page,
    vendors,
  }) => {
    const { email, name, token } = buyer('return');
    await holdUntilVendorsReport(page, vendors, '/api/confirm-subscription', '/checkout');
    await holdUntilVendorsReport(page, vendors, '/api/verify-subscription/', '/success');
    const confirmed = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/confirm-subscription');
    const subscription = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/confirm-subscription');
    await page.goto(checkoutUrl({ plan: 'standard', source: 'blackcard', email, name, token }));
    await fillSandboxCard(page, CARDS.authentication);
    await payButton(page).click();
    // The bank's step, then back to /checkout by a full page load whose address holds the hand-off.
    await completeAuthenticationAndReturn(page);
    expect((await confirmed).postDataJSON()).toMatchObject({ email, name, blackcard_token: token, source: 'blackcard' });
    const { subscriptionId } = (await (await subscription).json()) as { subscriptionId: string };
    // /success (invite funnel, standard plan) moves straight on to Level Two, with the token it was handed.
    await page.waitForURL((url) => url.pathname === '/blackcard-upsell');
    expect(new URL(page.url()).searchParams.get('token')).toBe(token);
    await expectCleanFirstSight(page, '/checkout');
    await page.waitForLoadState('networkidle');

    // The same /success address as a page load of its own: cleaned, and the token still read.
    await page.goto(
      `/success?${new URLSearchParams({ subscription_id: subscriptionId, plan: 'standard', source: 'blackcard', email, name, token })}`,
    );
    await page.waitForURL((url) => url.pathname === '/blackcard-upsell');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ email, name, token });
    await expectCleanFirstSight(page, '/success');

    expect(hitsCarrying(checkoutAndSuccessHits(vendors), [email, name, token])).toEqual([]);
  });

  test("a one-time payment's return to /success: cleaned on arrival, verified, and fine after a reload", async ({ page, vendors }) => {
    const { email, name, token } = buyer('one-time');
    await page.goto(checkoutUrl({ plan: 'full-payment', email, name, token }));
    await fillSandboxCard(page, CARDS.authentication);
    await payButton(page).click();
    await completeAuthenticationAndReturn(page);
    await page.waitForURL((url) => url.pathname === '/success');
    const welcome = page.getByRole('heading', { level: 1, name: pageCopy('success').welcome.heading });
    for (const load of [1, 2]) {
      await expect(welcome).toBeVisible();
      await expectAddress(page, '/success', { payment_intent: /^pi_/, plan: 'full-payment', redirect_status: 'succeeded' });
      await expectHitsFrom(vendors, '/success');
      await expectCleanFirstSight(page, '/success');
      if (load === 1) await page.reload();
    }
    expect(hitsCarrying(vendors.hits, [email, name, token])).toEqual([]);
  });

  test('a lead from the landing page reaches checkout without its e-mail and name in the address', async ({ page, vendors }) => {
    const { email, name } = buyer('lead');
    await page.goto('/');
    const form = page.getByTestId('lead-form');
    await expect(form.getByRole('button', { name: 'Continue to Payment' })).toBeEnabled();
    await form.getByLabel('Name (Optional)').fill(name);
    await form.getByLabel('Email Address *').fill(email);
    await form.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout');
    await expectAddress(page, '/checkout', { plan: 'standard' });
    await expect(page.getByTestId('customer-email')).toHaveText(email);
    await expect(page.getByTestId('customer-name')).toHaveText(name);
    await expectHitsFrom(vendors, '/checkout');
    expect(hitsCarrying(checkoutAndSuccessHits(vendors), [email, name])).toEqual([]);
  });

  test('a checkout opened from a page whose address holds the e-mail does not get it as its referrer', async ({ page, vendors }) => {
    const { email, name } = buyer('referrer');
    await page.goto(`/upsell?${new URLSearchParams({ email, name })}`);
    const card = page.getByRole('link', { name: `Start with ${priceOf('6-month')}/month` });
    const href = await card.getAttribute('href');
    expect(href).toBe(`/checkout?${new URLSearchParams({ plan: '6-month', email, name })}`);
    // As a new tab or a lost chunk would: a page load of the link, from this page.
    await page.evaluate((target) => window.location.assign(target), String(href));
    await page.waitForURL((url) => url.pathname === '/checkout');
    await expect(page.getByTestId('customer-email')).toHaveText(email);
    expect(await page.evaluate(() => document.referrer)).not.toContain('email');
    await expectHitsFrom(vendors, '/checkout');
    expect(hitsCarrying(checkoutAndSuccessHits(vendors), [email, name])).toEqual([]);
  });
});
