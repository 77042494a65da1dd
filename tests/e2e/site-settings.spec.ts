import { test as base, expect, type Page } from '@playwright/test';
import { planOf } from '@contracts/plans';
import { ANALYTICS_SITE_SETTINGS } from '../support/analytics-site-settings';
import { ANALYTICS_CONSENT_KEY, analyticsSiteFixture, type AnalyticsSite } from './support/analytics-site';
import { cspSources } from './support/csp';

/**
 * One build, two sites: the server under test starts with no analytics id and no members-area
 * link, the analytics site (scripts/test.ts) with GA4, the Meta pixel and links of its own, all
 * read from its environment at start. Each page must carry its own server's settings: the tags,
 * the Content-Security-Policy and the links change with no rebuild.
 */
const test = base.extend<object, { analyticsSite: AnalyticsSite }>({
  analyticsSite: analyticsSiteFixture(),
});

const GOOGLE_TAG = 'https://www.googletagmanager.com';
const META_PIXEL = 'https://connect.facebook.net';

/** The scripts and stylesheets a document loads from this origin: the build it comes from. */
const builtAssets = (html: string): string[] => [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]).sort();

/** Every request that leaves 127.0.0.1, kept off the network: vendor scripts get an empty stub, anything else is aborted. */
async function thirdPartyRequests(page: Page): Promise<string[]> {
  const urls: string[] = [];
  await page.route(
    (url) => url.protocol.startsWith('http') && url.hostname !== '127.0.0.1',
    (route) => {
      urls.push(route.request().url());
      return route.request().resourceType() === 'script'
        ? route.fulfill({ contentType: 'text/javascript', body: '/* vendor stub */' })
        : route.abort();
    },
  );
  return urls;
}

/**
 * The island's view once hydrated. Each site is an origin of its own, so each visit loads the
 * page's code afresh; on a machine shared by parallel runs that alone has taken over 7 s.
 */
const HYDRATED = { timeout: 20_000 };

/** A paid, active subscription as /api/verify-subscription answers it: a stub of our API (`screen:` tests only). */
async function answerActiveSubscription(page: Page): Promise<void> {
  await page.route('**/api/verify-subscription/*', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        status: 'active',
        amount: planOf('standard').amount,
        customer_email: null,
        customer_name: null,
        referral: null,
        plan: 'standard',
        purchase_event_id: 'evt_settings',
      }),
    }),
  );
}

test('the same build: only the site with ids carries them in its pages and their hosts in its policy', async ({
  request,
  baseURL,
  analyticsSite,
}) => {
  for (const path of ['/', '/checkout?plan=standard', '/success']) {
    const plain = await request.get(`${baseURL}${path}`);
    const withIds = await request.get(`${analyticsSite.url}${path}`);
    const [plainHtml, withIdsHtml] = [await plain.text(), await withIds.text()];
    expect(builtAssets(withIdsHtml), `${path}: one build serves both`).toEqual(builtAssets(plainHtml));
    expect(builtAssets(plainHtml).length).toBeGreaterThan(0);

    expect(plainHtml).not.toContain('id="site-settings"');
    expect(withIdsHtml).toContain('id="site-settings"');
    expect(withIdsHtml).toContain(ANALYTICS_SITE_SETTINGS.GA4_MEASUREMENT_ID);

    const plainScripts = cspSources(plain.headers()['content-security-policy'], 'script-src') ?? [];
    const withIdsScripts = cspSources(withIds.headers()['content-security-policy'], 'script-src') ?? [];
    expect(plainScripts).not.toContain(GOOGLE_TAG);
    expect(plainScripts).not.toContain(META_PIXEL);
    expect(withIdsScripts).toEqual(expect.arrayContaining([GOOGLE_TAG, META_PIXEL]));
  }
});

test('with consent given, GA4 and the pixel load with the site’s ids, and not at all on the site without', async ({
  page,
  baseURL,
  analyticsSite,
}) => {
  await page.addInitScript((key) => localStorage.setItem(key, 'granted'), ANALYTICS_CONSENT_KEY);
  const requested = await thirdPartyRequests(page);

  await page.goto(`${baseURL}/invitation`);
  await expect(page.getByRole('button', { name: 'Cookie settings' })).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  expect(requested).toEqual([]);

  await page.goto(`${analyticsSite.url}/invitation`);
  await expect
    .poll(() => requested.find((url) => url.startsWith(`${GOOGLE_TAG}/gtag/js?`)))
    .toBe(`${GOOGLE_TAG}/gtag/js?id=${ANALYTICS_SITE_SETTINGS.GA4_MEASUREMENT_ID}`);
  await expect.poll(() => requested.some((url) => url.startsWith(`${META_PIXEL}/`))).toBe(true);
  const fbq = await page.evaluate(() =>
    (window as unknown as { fbq?: { queue: ArrayLike<unknown>[] } }).fbq?.queue.map((entry) => Array.from(entry)),
  );
  expect(fbq).toContainEqual(['init', ANALYTICS_SITE_SETTINGS.META_PIXEL_ID]);
});

test("screen: after a purchase, each site's members-area links: its own, or the brand's defaults", async ({
  page,
  baseURL,
  analyticsSite,
}) => {
  test.slow();
  await answerActiveSubscription(page);
  const welcome = '/success?subscription_id=sub_settings&plan=standard&final=true';
  const links = async () => ({
    register: await page.getByTestId('register-account').getAttribute('href'),
    download: await page.getByTestId('app-download').getAttribute('href'),
  });

  await page.goto(`${analyticsSite.url}${welcome}`);
  await expect(page.getByTestId('success-welcome')).toBeVisible(HYDRATED);
  expect(await links()).toEqual({
    register: ANALYTICS_SITE_SETTINGS.MEMBERS_REGISTER_URL,
    download: ANALYTICS_SITE_SETTINGS.APP_DOWNLOAD_URL,
  });

  await page.goto(`${baseURL}${welcome}`);
  await expect(page.getByTestId('success-welcome')).toBeVisible(HYDRATED);
  const defaults = await links();
  expect(defaults.register).toMatch(/^https:\/\/app\.[^/]+\/register$/);
  expect(defaults.download).toMatch(/^https:\/\/app\.[^/]+\/download$/);
});

test("the program link of a finished purchase is each site's own", async ({ page, baseURL, analyticsSite }) => {
  test.slow();
  const allSet = '/success?plan=standard&email=a%40example.com&name=Avery&source=blackcard&final=true';
  const access = page.getByRole('link', { name: /Access Your Program/ });
  await page.goto(`${analyticsSite.url}${allSet}`);
  await expect(access).toHaveAttribute('href', ANALYTICS_SITE_SETTINGS.PROGRAM_APP_URL, HYDRATED);
  await page.goto(`${baseURL}${allSet}`);
  await expect(access).toHaveAttribute('href', /^https:\/\/app\.[^/]+$/, HYDRATED);
});
