import { test as base, expect, request, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { useAdminAccount } from './support/admin';
import { ANALYTICS_CONSENT_KEY, analyticsSiteFixture, serveAnalyticsSiteOn, type AnalyticsSite } from './support/analytics-site';
import { cspSources, watchCsp } from './support/csp';

/**
 * The admin pages are a document of their own (admin.html), built without the funnel's analytics,
 * pixel and affiliate code, and served under a Content-Security-Policy that lets scripts come from
 * this origin only.
 */
const admin = useAdminAccount('isolation');

const test = base.extend<object, { analyticsSite: AnalyticsSite }>({
  analyticsSite: analyticsSiteFixture(),
});

type Cookies = Awaited<ReturnType<BrowserContext['cookies']>>;
let session: Cookies = [];

test.beforeAll(async ({ baseURL }) => {
  const context = await request.newContext({ baseURL });
  expect((await context.post('/api/admin/login', { data: admin })).status()).toBe(200);
  session = (await context.storageState()).cookies;
  await context.dispose();
});

/** Every request of the page to a host other than the server's, kept off the network. */
async function recordOtherOrigins(page: Page, ownHost: string): Promise<string[]> {
  const requested: string[] = [];
  await page.route(
    (url) => url.protocol.startsWith('http') && url.hostname !== ownHost,
    (route) => {
      requested.push(route.request().url());
      return route.abort();
    },
  );
  return requested;
}

/** Opens the admin home, follows its link to the testimonial manager and back: the admin's own navigation. */
async function walkTheAdminScreens(page: Page): Promise<void> {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
  await page.getByRole('link', { name: 'Testimonials' }).click();
  await expect(page).toHaveURL(/\/admin\/testimonials$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Testimonials' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Existing Testimonials' })).toBeVisible();
  await page.getByRole('link', { name: 'Admin', exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
}

test.describe('admin pages load no third-party script', () => {
  test('every admin page is sent with a policy allowing scripts of this origin only, and the screens work under it', async ({
    page,
    context,
  }) => {
    const violations = await watchCsp(page);
    await context.addCookies(session);
    for (const path of ['/admin', '/admin/testimonials', '/admin/login', '/admin/no-such-screen']) {
      const response = await page.goto(path);
      const policy = response?.headers()['content-security-policy'];
      expect(cspSources(policy, 'script-src'), `script-src of ${path}`).toEqual(["'self'"]);
      expect(policy, `no other host in the policy of ${path}`).not.toMatch(/https?:\/\//);
    }
    await expect(page.getByTestId('not-found')).toBeVisible();
    await walkTheAdminScreens(page);
    // Its 'Back to home' leaves the admin document for the funnel's.
    await page.goto('/admin/no-such-screen');
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('lead-submit')).toBeEnabled();
    expect(violations).toEqual([]);
  });

  test('with analytics accepted and an affiliate cookie, the admin pages still request nothing from another origin', async ({
    page,
    context,
    baseURL,
    analyticsSite,
  }) => {
    const origin = new URL(String(baseURL));
    // The site with GA4 and the Meta pixel: on a funnel page with this consent, both load at once.
    await serveAnalyticsSiteOn(page, origin.origin, analyticsSite);
    const otherOrigins = await recordOtherOrigins(page, origin.hostname);
    await context.addCookies([...session, { name: '_fprom_tid', value: 'tid-admin-isolation', url: origin.origin }]);
    await page.addInitScript((key) => localStorage.setItem(key, 'granted'), ANALYTICS_CONSENT_KEY);

    await walkTheAdminScreens(page);
    await page.goto('/admin/login');
    await expect(page).toHaveURL(/\/admin$/);
    await page.waitForLoadState('networkidle');
    expect(otherOrigins).toEqual([]);

    // The same site and consent on a funnel page does load the vendors: the check above can fail.
    await page.goto('/invitation');
    await expect.poll(() => otherOrigins.some((url) => url.startsWith('https://www.googletagmanager.com/'))).toBe(true);
  });
});

/** Every script the document at `path` can ever run: its entry and every chunk those import, statically or lazily. */
async function reachableScripts(api: APIRequestContext, path: string): Promise<Map<string, string>> {
  const html = await (await api.get(path, { headers: { accept: 'text/html' } })).text();
  const pending = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/assets\/([\w.-]+\.js)"/g)].map(
    ([, file]) => file,
  );
  expect(pending.length, `the entry script of ${path}`).toBeGreaterThan(0);
  const scripts = new Map<string, string>();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (scripts.has(file)) continue;
    const response = await api.get(`/assets/${file}`);
    expect(response.status(), file).toBe(200);
    const code = await response.text();
    scripts.set(file, code);
    // Vite names chunks as "./x.js" in imports and as "assets/x.js" in its preload lists.
    for (const [, chunk] of code.matchAll(/["'`](?:\.\/|\/?assets\/)?([\w.-]+\.js)["'`]/g)) pending.push(chunk);
  }
  return scripts;
}

function filesContaining(scripts: Map<string, string>, markers: readonly string[]): string[] {
  return [...scripts].filter(([, code]) => markers.some((marker) => code.includes(marker))).map(([file]) => file);
}

test('the funnel ships no admin code, and the admin document no funnel tracking code', async ({ request: api }) => {
  const funnel = await reachableScripts(api, '/checkout');
  const adminDocument = await reachableScripts(api, '/admin');
  // Every admin screen calls the admin API; the funnel's tracking posts its beacon, stores consent and loads the vendors.
  expect(filesContaining(adminDocument, ['/api/admin/']).length).toBeGreaterThan(0);
  expect(filesContaining(funnel, ['/api/beacon']).length).toBeGreaterThan(0);
  expect(filesContaining(funnel, ['/api/admin/'])).toEqual([]);
  expect(
    filesContaining(adminDocument, ['/api/beacon', 'clear.analytics-consent', 'googletagmanager', 'fbevents', 'firstpromoter']),
  ).toEqual([]);
});
