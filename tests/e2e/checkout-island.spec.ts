import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { checkoutUrl, payButton } from './support/checkout';
import { uniqueEmail } from './support/landing';
import { priceOf } from './support/seller-site';
import {
  expectIslandPageCode,
  intlFormattingCalls,
  PAGE_JS_BUDGET_KIB,
  recordConsoleProblems,
  recordScripts,
  watchIntlFormatting,
} from './support/page-code';

/**
 * Marks, before any script of the page runs, the mandate paragraph the server's HTML holds: the
 * page's largest text. Hydration must keep that very element (so the largest paint stays the
 * first one), not replace it with a copy.
 */
async function markPrerenderedMandate(page: Page): Promise<void> {
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      const mandate = document.querySelector('.checkout__mandate');
      if (!mandate) return;
      mandate.setAttribute('data-from-html', 'true');
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
}

test.describe('/checkout is a prerendered page with one island', () => {
  test(`arrives ready to pay with at most ${PAGE_JS_BUDGET_KIB} KiB of gzip JavaScript, none of it the SPA's router or query library`, async ({
    page,
    baseURL,
  }) => {
    const origin = new URL(baseURL ?? 'http://127.0.0.1:3000').origin;
    const scripts = recordScripts(page, origin);
    const problems = recordConsoleProblems(page);
    await markPrerenderedMandate(page);
    await watchIntlFormatting(page);
    await page.setViewportSize({ width: 390, height: 844 });

    await page.goto(checkoutUrl({ plan: 'standard', email: uniqueEmail('island'), name: 'Island Buyer' }));
    await expect(payButton(page)).toBeEnabled();
    await expect(payButton(page)).toHaveText(`Pay ${priceOf('standard')}`);
    await page.waitForLoadState('networkidle');

    expectIslandPageCode(scripts, '/checkout', /\.route-|\/spa-|screen-providers/);
    // Every file costs gzip's overhead and an import line: the page's code comes in few (vite.config.ts,
    // OWN_CHUNKS), Rolldown's runtime helpers for React's CommonJS among them.
    expect(scripts.length, scripts.map((script) => script.url).join(', ')).toBeLessThanOrEqual(9);
    // The server's mandate paragraph is the one on screen now: hydrated in place, never re-created.
    await expect(page.locator('.checkout__mandate')).toHaveAttribute('data-from-html', 'true');
    await expect(page.locator('.checkout__mandate')).toHaveCount(1);
    expect(problems, 'hydration raises no error or warning').toEqual([]);
    expect(await intlFormattingCalls(page), 'prices are formatted without an Intl formatter').toEqual([]);
    await expectNoAxeViolations(page);
  });

  test(`a one-time plan without a saved card loads no one-click code and stays within ${PAGE_JS_BUDGET_KIB} KiB`, async ({
    page,
    baseURL,
  }) => {
    const scripts = recordScripts(page, new URL(baseURL ?? 'http://127.0.0.1:3000').origin);
    const offerAnswered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/one-click');
    await page.goto(checkoutUrl({ plan: 'full-payment', email: uniqueEmail('island-once'), name: 'Island Buyer' }));
    // The server is asked for the saved card's offer and has none: the card form, and none of the offer's code.
    expect((await (await offerAnswered).json()) as unknown).toEqual({ offer: null });
    await expect(payButton(page)).toBeEnabled();
    await expect(payButton(page)).toHaveText(`Pay ${priceOf('full-payment')}`);
    await page.waitForLoadState('networkidle');

    expect(scripts.map((script) => script.url)).not.toContainEqual(expect.stringMatching(/one-click/));
    expectIslandPageCode(scripts, '/checkout (full-payment)', /\.route-|\/spa-|screen-providers/);
  });

  test('a return from a failed card authentication starts checkout over on the same page', async ({ page }) => {
    const email = uniqueEmail('island-retry');
    await page.goto(
      checkoutUrl({ plan: 'standard', email, name: 'Island Buyer', setup_intent: 'seti_island_failed', redirect_status: 'failed' }),
    );
    // The spec's toast for a failed authentication, then a fresh attempt: the provider's return
    // parameters leave the address and the card form comes back, ready to pay.
    await expect(page.getByText('Payment Setup Failed')).toBeVisible();
    await page.waitForURL((url) => url.pathname === '/checkout' && !url.searchParams.has('setup_intent'));
    await expect(payButton(page)).toBeEnabled();
    await expect(payButton(page)).toHaveText(`Pay ${priceOf('standard')}`);
  });
});
