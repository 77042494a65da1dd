import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { handOffOf } from './support/checkout';
import { openLanding, uniqueEmail } from './support/landing';
import {
  expectIslandPageCode,
  intlFormattingCalls,
  PAGE_JS_BUDGET_KIB,
  recordConsoleProblems,
  recordScripts,
  scriptsHolding,
  watchIntlFormatting,
} from './support/page-code';
import { pageCopy } from './support/seller-site';

/**
 * Every island of the landing page, in page order: the consent islands too, empty on this site (no
 * analytics ids), since whether a site has analytics is known only at run time.
 */
const ISLANDS = ['consent-banner', 'hero-video', 'sales-letter-video', 'testimonials', 'faq', 'lead-form', 'consent-settings', 'toasts'];

test.describe('the landing page hydrates only its islands', () => {
  test(`ships at most ${PAGE_JS_BUDGET_KIB} KiB of gzip JavaScript, none of it the SPA's router or query library`, async ({
    page,
    baseURL,
  }) => {
    const origin = new URL(baseURL ?? 'http://127.0.0.1:3000').origin;
    const scripts = recordScripts(page, origin);
    await watchIntlFormatting(page);
    await openLanding(page);
    await page.waitForLoadState('networkidle');

    expect(scripts.length, 'the page runs scripts').toBeGreaterThan(0);
    expectIslandPageCode(scripts, '/');
    // The static sections are the server's HTML: their copy (the founder's section, say) ships in no script.
    expect(scriptsHolding(scripts, 'Meet Your Coach'), "the islands' code holds none of the static sections' copy").toEqual([]);
    expect(await intlFormattingCalls(page), 'no Intl formatter while the page loads').toEqual([]);
  });

  test('static sections stay server HTML; each island is its own hydrated root, without a mismatch', async ({ page }) => {
    const problems = recordConsoleProblems(page);
    await openLanding(page);

    const { islands, hydratedOutsideIslands } = await page.evaluate(() => {
      const touchedByReact = (element: Element) => Object.keys(element).some((key) => key.startsWith('__react'));
      const containers = [...document.querySelectorAll<HTMLElement>('[data-island]')];
      return {
        islands: containers.map((container) => ({
          name: container.dataset.island,
          root: Object.keys(container).some((key) => key.startsWith('__reactContainer')),
        })),
        hydratedOutsideIslands: [...document.querySelectorAll('#root *')]
          .filter((element) => !element.closest('[data-island]') && touchedByReact(element))
          .map((element) => element.outerHTML.slice(0, 80)),
      };
    });
    expect(islands).toEqual(ISLANDS.map((name) => ({ name, root: true })));
    expect(hydratedOutsideIslands, 'no element outside an island belongs to React').toEqual([]);
    expect(problems, 'hydration raises no error or warning').toEqual([]);
    await expectNoAxeViolations(page);
  });

  test('after hydration the islands work: the FAQ toggles, the video facade plays, a static CTA focuses the form', async ({ page }) => {
    await page.route(/youtube-nocookie\.com/, (route) => route.abort());
    await openLanding(page);
    const question = page.getByTestId('section-faq').locator('button[aria-expanded]').first();
    await question.click();
    await expect(question).toHaveAttribute('aria-expanded', 'true');
    await question.click();
    await expect(question).toHaveAttribute('aria-expanded', 'false');

    const video = page.getByTestId('section-sales-letter');
    await video.getByRole('button', { name: /^Play the video/ }).click();
    await expect(video.locator('iframe')).toBeFocused();

    await page.getByTestId('cta-value-stack').click();
    await expect(page.getByLabel('Email Address *')).toBeFocused();
  });

  test('a saved lead opens checkout inside the SPA without a page load, focus on its heading; Back shows the landing page again', async ({
    page,
  }) => {
    await openLanding(page);
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(request.url());
    });
    const form = page.getByTestId('lead-form');
    const email = uniqueEmail('islands');
    await form.getByLabel('Email Address *').fill(email);
    await form.getByRole('button', { name: 'Continue to Payment' }).click();

    await page.waitForURL((url) => url.pathname === '/checkout');
    expect(await handOffOf(page)).toEqual({ plan: 'standard', email });
    const heading = page.getByRole('heading', { level: 1, name: 'Complete Your Order' });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    await expect(page).toHaveTitle(pageCopy('pages').pages.checkout.title);
    expect(documents, 'a client-side navigation: no document was requested').toEqual([]);

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(page.getByRole('heading', { level: 1, name: 'Your next level of greatness starts here.' })).toBeVisible();
    const question = page.getByTestId('section-faq').locator('button[aria-expanded]').first();
    await question.click();
    await expect(question).toHaveAttribute('aria-expanded', 'true');
  });
});

test.describe("React's runtime loads ahead of each page's own code", () => {
  // The pages whose entry loads its islands through lib/island-loading.ts (not `/` nor /checkout).
  for (const { path, islands, expected } of [
    { path: '/invitation', islands: 'invitation-islands' },
    { path: '/upsell?email=runtime%40example.com&name=Runtime', islands: 'upsell-islands' },
    // Signed out, the account request answers 401: the browser reports that failed resource.
    { path: '/account', islands: 'account-islands', expected: (text: string) => text.includes('status of 401') },
  ]) {
    test(`${path.split('?')[0]}: react-dom comes marked for eager compilation, and the page's islands are asked for only once it has run`, async ({
      page,
      baseURL,
    }) => {
      const origin = new URL(baseURL ?? 'http://127.0.0.1:3000').origin;
      // Events arrive in the order the browser saw them: a counter orders them.
      let seq = 0;
      const runtimeDone: number[] = [];
      let islandsAsked = -1;
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith(`/assets/${islands}-`)) islandsAsked = ++seq;
      });
      page.on('requestfinished', async (request) => {
        const at = ++seq;
        if (request.resourceType() !== 'script' || !request.url().startsWith(origin)) return;
        const body = (await (await request.response())?.body())?.toString('utf8') ?? '';
        if (body.startsWith('//# allFunctionsCalledOnLoad\n')) runtimeDone.push(at);
      });
      const problems = recordConsoleProblems(page, expected);
      await watchIntlFormatting(page);
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await expect.poll(() => page.evaluate(() => document.querySelector('[data-island]') !== null)).toBe(true);

      expect(runtimeDone, 'exactly one script carries the compile hint (the chunk holding react-dom)').toHaveLength(1);
      expect(islandsAsked, `the page's ${islands} chunk was fetched`).toBeGreaterThan(0);
      expect(islandsAsked, "the page's own island code is asked for after the runtime has arrived").toBeGreaterThan(runtimeDone[0]);
      expect(problems).toEqual([]);
      expect(await intlFormattingCalls(page), 'no Intl formatter while the page hydrates').toEqual([]);
    });
  }
});
