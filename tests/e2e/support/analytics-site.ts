import type { Page } from '@playwright/test';
import { ANALYTICS_SITE_SETTINGS } from '../../support/analytics-site-settings';

/**
 * The site with analytics ids: the same build as the server under test (which has none), served
 * by a second API that `npm test` starts with GA4, the Meta pixel and its own members-area links
 * set in its environment (tests/support/analytics-site-settings.ts). Nothing is rebuilt for it.
 */
export const TEST_GA4_ID = ANALYTICS_SITE_SETTINGS.GA4_MEASUREMENT_ID;
export const TEST_META_PIXEL_ID = ANALYTICS_SITE_SETTINGS.META_PIXEL_ID;

export interface AnalyticsSite {
  url: string;
}

function analyticsSite(): AnalyticsSite {
  const url = process.env.E2E_ANALYTICS_SITE_URL;
  if (!url) throw new Error('E2E_ANALYTICS_SITE_URL is not set: run the browser tests through "npm test"');
  return { url };
}

/** The worker-scoped Playwright fixture: `test.extend<…, { analyticsSite: AnalyticsSite }>({ analyticsSite: analyticsSiteFixture() })`. */
export const analyticsSiteFixture = (): [
  (args: object, use: (site: AnalyticsSite) => Promise<void>) => Promise<void>,
  { scope: 'worker' },
] => [
  // Playwright reads a fixture's dependencies from this destructuring: it must stay `{}`.
  async ({}, use) => use(analyticsSite()),
  { scope: 'worker' },
];

/** Where the SPA keeps the visitor's answer to the consent banner. */
export const ANALYTICS_CONSENT_KEY = 'clear.analytics-consent.v1';

/**
 * Puts the analytics site's pages in place of the default ones on the server under test's own
 * origin: every page and asset request to `origin` outside /api/ is answered by `site` (its
 * headers, CSP included), while every /api/ request still reaches the server under test. The
 * origin stays the server's, so the sandbox's return URLs and session storage behave exactly as
 * with the default site.
 */
export async function serveAnalyticsSiteOn(page: Page, origin: string, site: AnalyticsSite): Promise<void> {
  await page.route(
    (url) => url.origin === origin && !url.pathname.startsWith('/api/'),
    async (route) => {
      const url = new URL(route.request().url());
      try {
        await route.fulfill({ response: await route.fetch({ url: `${site.url}${url.pathname}${url.search}` }) });
      } catch (err) {
        // The page navigated away while this answer was on its way (Playwright disposes what the
        // old document fetched): nothing waits for it any more. Anything else is a real failure.
        if (String(err).includes('Fetch response has been disposed')) return;
        throw err;
      }
    },
  );
}

/**
 * Keeps every third party off the network (only `ownHost` is let through): the GA4 and Meta pixel
 * scripts get an empty stub, so the calls the page makes stay in their command queues, and
 * anything else is aborted. Returns the URLs asked for.
 */
export async function stubAnalyticsVendors(page: Page, ownHost: string): Promise<string[]> {
  const urls: string[] = [];
  await page.route(
    (url) => url.protocol.startsWith('http') && url.hostname !== ownHost,
    (route) => {
      const url = route.request().url();
      urls.push(url);
      if (/^https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=/.test(url) || url === 'https://connect.facebook.net/en_US/fbevents.js')
        return route.fulfill({ contentType: 'text/javascript', body: '/* vendor stub */' });
      return route.abort();
    },
  );
  return urls;
}

/** Every call this document made to gtag and to fbq, oldest first, as plain arrays (the queues hold `arguments` objects). */
export function analyticsVendorCalls(page: Page): Promise<{ gtag: unknown[][]; fbq: unknown[][] }> {
  return page.evaluate(() => {
    const list = (queue: unknown[] | undefined) => (queue ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>));
    const vendors = window as unknown as { dataLayer?: unknown[]; fbq?: { queue: unknown[] } };
    return { gtag: list(vendors.dataLayer), fbq: list(vendors.fbq?.queue) };
  });
}

/** One request a vendor stand-in sent: its address and its body, as the vendor's servers would receive them. */
export interface VendorHit {
  vendor: 'ga4' | 'meta';
  url: string;
  body: string;
}

export interface VendorStandIns {
  /** Every hit so far, oldest first. */
  hits: VendorHit[];
  /** Every other third-party request, aborted. */
  others: string[];
}

/** What each stand-in saw as the page's address when it first ran, per vendor. */
export type FirstSeenLocations = Partial<Record<VendorHit['vendor'], string>>;

type Untyped = Record<string, any>;

/**
 * gtag.js as far as privacy goes: it reads the command queue, sends each event to the collection
 * endpoint with the page's address (`dl`, or the configured `page_location`), referrer (`dr`) and
 * title, and, like GA4's enhanced measurement, a page view on every history change.
 */
function ga4StandIn(): void {
  const page = window as unknown as Untyped;
  page.__vendorFirstSeen ??= {};
  page.__vendorFirstSeen.ga4 ??= document.location.href;
  let measurementId: string | null = null;
  let configured: Untyped = {};
  const send = (name: string, params: Untyped) => {
    if (!measurementId) return;
    const query = new URLSearchParams({
      v: '2',
      tid: measurementId,
      en: name,
      dl: String(params.page_location ?? configured.page_location ?? document.location.href),
      dr: document.referrer,
      dt: document.title,
    });
    const body = Object.entries(params)
      .map(([key, value]) => `ep.${key}=${encodeURIComponent(String(value))}`)
      .join('&');
    void fetch(`https://region1.google-analytics.com/g/collect?${query.toString()}`, { method: 'POST', mode: 'no-cors', body }).catch(
      () => undefined,
    );
  };
  const handle = (entry: ArrayLike<unknown>) => {
    const [command, target, params] = Array.from(entry) as [string, string, Untyped | undefined];
    if (command === 'config') {
      measurementId = target;
      configured = params ?? {};
      if (configured.send_page_view !== false) send('page_view', {});
    } else if (command === 'event') send(target, params ?? {});
  };
  const dataLayer = (page.dataLayer ??= []) as ArrayLike<unknown>[];
  dataLayer.forEach(handle);
  const push = dataLayer.push.bind(dataLayer);
  dataLayer.push = (...entries: ArrayLike<unknown>[]) => {
    entries.forEach(handle);
    return push(...entries);
  };
  const onHistoryChange = () => send('page_view', { page_location: document.location.href });
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method];
    history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
      original.apply(this, args);
      onHistoryChange();
    };
  }
  addEventListener('popstate', onHistoryChange);
}

/**
 * fbevents.js as far as privacy goes: it replays the queue, then sends each tracked event as an
 * image request with the page's address (`dl`) and referrer (`rl`), and, like the pixel's
 * single-page-app support, a PageView on every history change.
 */
function metaPixelStandIn(): void {
  const page = window as unknown as Untyped;
  page.__vendorFirstSeen ??= {};
  page.__vendorFirstSeen.meta ??= document.location.href;
  const fbq = page.fbq as Untyped | undefined;
  if (!fbq) return;
  let pixelId: string | null = null;
  const send = (event: string, params?: Untyped, options?: Untyped) => {
    if (!pixelId) return;
    const query = new URLSearchParams({ id: pixelId, ev: event, dl: document.location.href, rl: document.referrer });
    for (const [key, value] of Object.entries(params ?? {})) query.set(`cd[${key}]`, String(value));
    if (options?.eventID) query.set('eid', String(options.eventID));
    new Image().src = `https://www.facebook.com/tr/?${query.toString()}`;
  };
  const handle = (entry: ArrayLike<unknown>) => {
    const [command, first, second, third] = Array.from(entry) as [string, string, Untyped | undefined, Untyped | undefined];
    if (command === 'init') pixelId = first;
    else if (command === 'track') send(first, second, third);
  };
  (fbq.queue as ArrayLike<unknown>[]).forEach(handle);
  fbq.callMethod = (...args: unknown[]) => {
    (fbq.queue as unknown[][]).push(args);
    handle(args);
  };
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method];
    history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
      original.apply(this, args);
      send('PageView');
    };
  }
  addEventListener('popstate', () => send('PageView'));
}

const GA4_COLLECT = /^https:\/\/region1\.google-analytics\.com\/g\/collect\?/;
const META_TR = /^https:\/\/www\.facebook\.com\/tr\/\?/;

/**
 * Like stubAnalyticsVendors, but the GA4 and Meta pixel scripts are stand-ins that behave like the
 * real ones where personal data could leak (they report the page's address and referrer, also on
 * history changes), and their hits are recorded instead of sent. Anything else third-party is aborted.
 */
export async function serveVendorStandIns(page: Page, ownHost: string): Promise<VendorStandIns> {
  const standIns: VendorStandIns = { hits: [], others: [] };
  await page.route(
    (url) => url.protocol.startsWith('http') && url.hostname !== ownHost,
    (route) => {
      const request = route.request();
      const url = request.url();
      if (/^https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=/.test(url))
        return route.fulfill({ contentType: 'text/javascript', body: `(${ga4StandIn.toString()})();` });
      if (url === 'https://connect.facebook.net/en_US/fbevents.js')
        return route.fulfill({ contentType: 'text/javascript', body: `(${metaPixelStandIn.toString()})();` });
      const vendor = GA4_COLLECT.test(url) ? 'ga4' : META_TR.test(url) ? 'meta' : null;
      if (!vendor) {
        standIns.others.push(url);
        return route.abort();
      }
      standIns.hits.push({ vendor, url, body: request.postData() ?? '' });
      return route.fulfill({ status: 204 });
    },
  );
  return standIns;
}

/** The page address a hit reports (GA4 and Meta both call it `dl`). */
export function reportedLocation(hit: VendorHit): URL {
  return new URL(new URL(hit.url).searchParams.get('dl') ?? 'about:blank');
}

export function firstSeenLocations(page: Page): Promise<FirstSeenLocations> {
  return page.evaluate(() => (window as unknown as { __vendorFirstSeen?: FirstSeenLocations }).__vendorFirstSeen ?? {});
}

/** A hit's address and body with every layer of URL encoding undone, so a value is found however it was encoded. */
function decoded(hit: VendorHit): string {
  let text = `${hit.url}\n${hit.body}`;
  for (let layer = 0; layer < 4; layer += 1) {
    let next: string;
    try {
      next = decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      break;
    }
    if (next === text) break;
    text = next;
  }
  return text.toLowerCase();
}

/** The hits that carry any of `values` (e-mail, name, token) anywhere: address, query or body. */
export function hitsCarrying(hits: readonly VendorHit[], values: readonly string[]): VendorHit[] {
  return hits.filter((hit) => values.some((value) => decoded(hit).includes(value.toLowerCase())));
}
