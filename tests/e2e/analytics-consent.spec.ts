import { test as base, expect, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyticsSiteFixture, TEST_GA4_ID, TEST_META_PIXEL_ID, type AnalyticsSite } from './support/analytics-site';
import { openLanding } from './support/landing';

const CONSENT_KEY = 'clear.analytics-consent.v1';
const GA_SCRIPT = /^https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=/;
const PIXEL_SCRIPT = 'https://connect.facebook.net/en_US/fbevents.js';
const DENIED = { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied' };
const screenshotsDir = resolve(__dirname, '../../test-results/screenshots');
const GRANTED = { ad_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted', analytics_storage: 'granted' };

/** The site with analytics ids (the same build, its ids set at run time); every test of this file runs against it. */
const test = base.extend<object, { analyticsSite: AnalyticsSite }>({
  analyticsSite: analyticsSiteFixture(),
  baseURL: async ({ analyticsSite }, use) => use(analyticsSite.url),
});

/**
 * Records every request that leaves 127.0.0.1 and keeps it off the network: the two vendor
 * scripts get an empty stub (their command queues stay readable), anything else is aborted.
 */
async function interceptThirdParties(page: Page): Promise<string[]> {
  // The hero's muted loop (the privacy-enhanced YouTube player, not consent-gated) starts a few
  // seconds after the page settles, never for visitors who prefer reduced motion: so only the
  // vendors' requests are counted here, however long a step takes.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const urls: string[] = [];
  await page.route(
    (url) => url.protocol.startsWith('http') && url.hostname !== '127.0.0.1',
    (route) => {
      const url = route.request().url();
      urls.push(url);
      if (GA_SCRIPT.test(url) || url === PIXEL_SCRIPT) return route.fulfill({ contentType: 'text/javascript', body: '/* vendor stub */' });
      return route.abort();
    },
  );
  return urls;
}

/** The gtag and fbq command queues as plain arrays (they hold `arguments` objects). */
function vendorQueues(page: Page): Promise<{ gtag: unknown[][] | null; fbq: unknown[][] | null }> {
  return page.evaluate(() => {
    const list = (queue: unknown[] | undefined) => (queue ? queue.map((entry) => Array.from(entry as ArrayLike<unknown>)) : null);
    const fbq = (window as unknown as { fbq?: { queue: unknown[] } }).fbq;
    return { gtag: list((window as unknown as { dataLayer?: unknown[] }).dataLayer), fbq: list(fbq?.queue) };
  });
}

function indexOfCommand(queue: unknown[][], ...command: unknown[]): number {
  return queue.findIndex((entry) => command.every((part, i) => JSON.stringify(entry[i]) === JSON.stringify(part)));
}

function banner(page: Page) {
  return page.getByRole('region', { name: 'Cookie consent' });
}

/** The consent UI mounts after hydration; once "Cookie settings" is there, a banner that was going to show has been asked for. */
async function openLandingWithConsentUi(page: Page): Promise<void> {
  await openLanding(page);
  await expect(page.getByRole('button', { name: 'Cookie settings' })).toBeVisible();
  await page.waitForLoadState('networkidle');
}

test.describe('analytics consent (a site with GA4 and Meta pixel ids)', () => {
  test('first visit: the banner asks, and nothing third-party loads before an answer', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const thirdParty = await interceptThirdParties(page);
    await openLandingWithConsentUi(page);

    const region = banner(page);
    await expect(region).toBeVisible();
    await expect(region).toContainText('Google Analytics and the Meta pixel');
    await expect(region.getByRole('button', { name: 'Accept' })).toBeVisible();
    await expect(region.getByRole('button', { name: 'Decline' })).toBeVisible();
    expect(thirdParty).toEqual([]);
    expect(await vendorQueues(page)).toEqual({ gtag: null, fbq: null });
    expect(await page.evaluate((key) => localStorage.getItem(key), CONSENT_KEY)).toBeNull();
    expect(errors, 'hydration and the lazy consent UI raise no error').toEqual([]);
  });

  test('the banner is first in the tab order, shows focus, and leaves the page usable at 390 px', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await interceptThirdParties(page);
    await openLandingWithConsentUi(page);
    const region = banner(page);

    await page.keyboard.press('Tab');
    const accept = region.getByRole('button', { name: 'Accept' });
    await expect(accept).toBeFocused();
    const outline = await accept.evaluate((button) => getComputedStyle(button).outlineStyle);
    expect(outline, 'a visible focus ring').toBe('solid');
    await page.keyboard.press('Tab');
    await expect(region.getByRole('button', { name: 'Decline' })).toBeFocused();
    await page.keyboard.press('Tab');
    const focusLeftBanner = await page.evaluate(() => document.activeElement?.closest('[data-testid="consent-banner"]') === null);
    expect(focusLeftBanner, 'Tab moves on into the page: focus is not trapped').toBe(true);

    const box = await region.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844, 'the banner fits the viewport').toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    mkdirSync(screenshotsDir, { recursive: true });
    const path = resolve(screenshotsDir, 'consent-banner-390.png');
    await page.screenshot({ path });
    await testInfo.attach('consent-banner-390', { path, contentType: 'image/png' });
    // Not modal: the page behind it still takes clicks.
    await page.getByTestId('cta-hero').click();
    await expect(page.getByLabel('Email Address *')).toBeFocused();
  });

  test('the banner and the settings footer pass axe (WCAG 2 A/AA)', async ({ page }) => {
    await interceptThirdParties(page);
    await openLandingWithConsentUi(page);
    // Evaluated rather than added as a <script>: the site's CSP rightly refuses inline scripts.
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
        }
      ).axe;
      const context = { include: [['[data-testid="consent-banner"]'], ['.consent-footer']] };
      const result = await axe.run(context, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } });
      return result.violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
    });
    expect(violations).toEqual([]);
  });

  test('Decline: nothing loads, and the answer is remembered across a reload', async ({ page }) => {
    const thirdParty = await interceptThirdParties(page);
    await openLandingWithConsentUi(page);
    await banner(page).getByRole('button', { name: 'Decline' }).click();
    await expect(banner(page)).toHaveCount(0);
    expect(await page.evaluate((key) => localStorage.getItem(key), CONSENT_KEY)).toBe('denied');

    await page.reload();
    await openLandingWithConsentUi(page);
    await expect(banner(page)).toHaveCount(0);
    expect(thirdParty).toEqual([]);
    expect(await vendorQueues(page)).toEqual({ gtag: null, fbq: null });
  });

  test('Accept: Consent Mode v2 signals, then both vendors load and the waiting page view flows', async ({ page }) => {
    const thirdParty = await interceptThirdParties(page);
    await openLandingWithConsentUi(page);
    expect(thirdParty).toEqual([]);
    await banner(page).getByRole('button', { name: 'Accept' }).click();
    await expect(banner(page)).toHaveCount(0);

    await expect.poll(() => thirdParty.length).toBe(2);
    expect(thirdParty).toEqual(expect.arrayContaining([`https://www.googletagmanager.com/gtag/js?id=${TEST_GA4_ID}`, PIXEL_SCRIPT]));
    const { gtag, fbq } = await vendorQueues(page);
    if (!gtag || !fbq) throw new Error('Neither vendor queue may be missing after Accept');

    const consentDefault = indexOfCommand(gtag, 'consent', 'default', DENIED);
    const config = indexOfCommand(gtag, 'config', TEST_GA4_ID);
    const consentUpdate = indexOfCommand(gtag, 'consent', 'update', GRANTED);
    const pageView = indexOfCommand(gtag, 'event', 'page_view');
    expect(consentDefault, 'consent default (denied) is queued').toBeGreaterThanOrEqual(0);
    expect(config, 'config comes after the consent default').toBeGreaterThan(consentDefault);
    expect(consentUpdate, 'the update to granted follows config').toBeGreaterThan(config);
    expect(pageView, 'the page view raised before the answer is sent after the update').toBeGreaterThan(consentUpdate);
    expect(gtag[pageView][2]).toMatchObject({ page_path: '/' });

    const revoke = indexOfCommand(fbq, 'consent', 'revoke');
    const init = indexOfCommand(fbq, 'init', TEST_META_PIXEL_ID);
    const grant = indexOfCommand(fbq, 'consent', 'grant');
    const pixelPageView = indexOfCommand(fbq, 'track', 'PageView');
    expect(revoke).toBeGreaterThanOrEqual(0);
    expect(init).toBeGreaterThan(revoke);
    expect(grant).toBeGreaterThan(init);
    expect(pixelPageView).toBeGreaterThan(grant);
    expect(await page.evaluate((key) => localStorage.getItem(key), CONSENT_KEY)).toBe('granted');
  });

  test('a remembered Accept loads the vendors at once; "Cookie settings" reopens the banner to decline', async ({ page }) => {
    const thirdParty = await interceptThirdParties(page);
    await page.addInitScript((key) => localStorage.setItem(key, 'granted'), CONSENT_KEY);
    await openLandingWithConsentUi(page);
    await expect(banner(page)).toHaveCount(0);
    await expect.poll(() => thirdParty.length).toBe(2);

    const settings = page.getByRole('button', { name: 'Cookie settings' });
    await settings.click();
    await expect(banner(page)).toBeFocused();
    await expect(banner(page)).toContainText('You currently accept these cookies.');
    await banner(page).getByRole('button', { name: 'Decline' }).click();
    await expect(banner(page)).toHaveCount(0);
    await expect(settings).toBeFocused();

    const { gtag, fbq } = await vendorQueues(page);
    expect(gtag && indexOfCommand(gtag, 'consent', 'update', DENIED)).toBeGreaterThan(0);
    expect(fbq && fbq.at(-1)).toEqual(['consent', 'revoke']);
    expect(await page.evaluate((key) => localStorage.getItem(key), CONSENT_KEY)).toBe('denied');
  });
});
