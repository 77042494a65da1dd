import { expect, test, type Page } from '@playwright/test';
import { planOf } from '@contracts/plans';
import {
  expectIslandPageCode,
  intlFormattingCalls,
  PAGE_JS_BUDGET_KIB,
  recordConsoleProblems,
  recordScripts,
  scriptsHolding,
  watchIntlFormatting,
} from './support/page-code';

/**
 * /success and /account are prerendered island pages (issue 20): their document paints the page's
 * first view, then one island hydrates it, with neither the SPA's router nor its query library.
 * The same screens still run inside the SPA when checkout moves on to /success (success.spec.ts).
 */

/** A verified payment in the contract's shape: a stub of our API, so the page's own work is all that runs. */
async function answerVerification(page: Page, plan: string): Promise<void> {
  await page.route('**/api/verify-subscription/*', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        status: 'active',
        amount: planOf(plan).amount,
        plan,
        customer_email: 'a@example.com',
        customer_name: 'Avery',
        referral: null,
        purchase_event_id: 'evt_1',
      }),
    }),
  );
}

async function islandRoots(page: Page): Promise<{ name: string | undefined; root: boolean }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-island]')].map((container) => ({
      name: container.dataset.island,
      root: Object.keys(container).some((key) => key.startsWith('__reactContainer')),
    })),
  );
}

test.describe('screen: /success and /account are island pages', () => {
  test(`/success hydrates its island with at most ${PAGE_JS_BUDGET_KIB} KiB of gzip JavaScript, none of it the SPA's router or query library`, async ({
    page,
    baseURL,
  }) => {
    const scripts = recordScripts(page, new URL(String(baseURL)).origin);
    const problems = recordConsoleProblems(page, (text) => text.includes('401'));
    await answerVerification(page, 'standard');
    await watchIntlFormatting(page);
    await page.goto('/success?subscription_id=sub_island&plan=standard');
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Confirmed!' })).toBeFocused();
    // The celebration plays, and its canvas goes once it is over.
    await expect(page.locator('canvas.success__confetti')).toHaveCount(1);
    await expect(page.locator('canvas.success__confetti')).toHaveCount(0, { timeout: 10_000 });
    await page.waitForLoadState('networkidle');

    // The consent banner's island stays empty on this site (no analytics ids).
    expect(await islandRoots(page)).toEqual([
      { name: 'consent-banner', root: true },
      { name: 'success', root: true },
    ]);
    expectIslandPageCode(scripts, '/success');
    // The offer shows /upsell's plan cards, not the rest of /upsell's copy (its plans' heading, say).
    expect(scriptsHolding(scripts, 'Choose how you want to pay'), "/success ships none of /upsell's own copy").toEqual([]);
    // Of site.json, only what the pages' code reads: the method's and the founder's names reach pages
    // filled into their copy, and plans carry no product. Their settings' keys, since a name may also
    // stand in a text (a plan named after the method).
    for (const unread of ['methodName:', 'founderName:', 'product:'])
      expect(scriptsHolding(scripts, unread), `/success ships no site setting its code does not read: ${unread}`).toEqual([]);
    expect(problems, 'no hydration mismatch, no CSP violation, no error').toEqual([]);
    expect(await intlFormattingCalls(page), 'the amount is formatted without an Intl formatter').toEqual([]);
  });

  test(`/account hydrates its island with at most ${PAGE_JS_BUDGET_KIB} KiB of gzip JavaScript, none of it the SPA's router or query library`, async ({
    page,
    baseURL,
  }) => {
    const scripts = recordScripts(page, new URL(String(baseURL)).origin);
    const problems = recordConsoleProblems(page, (text) => text.includes('401'));
    await page.goto('/account');
    await expect(page.getByRole('button', { name: 'Send me a sign-in link' })).toBeVisible();
    await page.waitForLoadState('networkidle');

    expect(await islandRoots(page)).toEqual([
      { name: 'consent-banner', root: true },
      { name: 'account', root: true },
    ]);
    expectIslandPageCode(scripts, '/account');
    // Its card form shares the sandbox card's copy with checkout, and nothing else of checkout's.
    expect(scriptsHolding(scripts, 'Complete Your Order'), "/account ships none of checkout's copy").toEqual([]);
    expect(problems, 'no hydration mismatch, no error').toEqual([]);
  });

  test('the first paint holds the largest text: the result views paint nothing larger than the prerendered line', async ({ page }) => {
    await page.setViewportSize({ width: 412, height: 823 });
    // Every largest-contentful-paint candidate, from the first paint on.
    await page.addInitScript(() => {
      const entries: { size: number; text: string }[] = [];
      (window as unknown as { lcp: typeof entries }).lcp = entries;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { size: number; element: Element | null })[])
          entries.push({ size: entry.size, text: entry.element?.textContent?.slice(0, 60) ?? '' });
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    const candidates = () => page.evaluate(() => (window as unknown as { lcp: { size: number; text: string }[] }).lcp);

    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const [query, heading] of [
      ['subscription_id=sub_lcp_standard&plan=standard', 'Payment Confirmed!'],
      ['subscription_id=sub_lcp_full&plan=full-payment', /^Welcome to /],
      ['plan=standard&source=blackcard&final=true', "You're All Set!"],
      ['plan=standard', 'Payment Verification Failed'],
    ] as const) {
      await answerVerification(page, new URLSearchParams(query).get('plan') ?? 'standard');
      await page.goto(`/success?${query}`);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await page.waitForTimeout(300);
      expect((await candidates()).at(-1)?.text, `/success?${query}`).toBe('Please wait while we confirm your purchase.');
      await page.unrouteAll();
    }

    await page.goto('/account');
    await expect(page.getByRole('button', { name: 'Send me a sign-in link' })).toBeVisible();
    await page.waitForTimeout(300);
    expect((await candidates()).at(-1)?.text, '/account').toMatch(/^Your memberships and payments in one place/);
  });
});
