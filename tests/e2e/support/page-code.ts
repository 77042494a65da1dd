import { expect, type Page } from '@playwright/test';
import { gzipSync } from 'node:zlib';

/** The budget of first-party JavaScript on every page a buyer sees (issue 20), gzip at maximum level. */
export const PAGE_JS_BUDGET_KIB = 75;

export interface LoadedScript {
  url: string;
  gzipBytes: number;
  text: string;
}

/** Every script the page fetches from its own origin, with its size at maximum gzip; the list fills as they arrive. */
export function recordScripts(page: Page, origin: string): LoadedScript[] {
  const scripts: LoadedScript[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script' || !response.url().startsWith(origin)) return;
    const body = await response.body();
    scripts.push({ url: new URL(response.url()).pathname, gzipBytes: gzipSync(body, { level: 9 }).length, text: body.toString('utf8') });
  });
  return scripts;
}

/** The scripts' total in KiB, and a listing of each (path and size) to explain a failure. */
function scriptTotals(scripts: readonly LoadedScript[]): { totalKiB: number; listing: string } {
  return {
    totalKiB: scripts.reduce((sum, script) => sum + script.gzipBytes, 0) / 1024,
    listing: scripts.map((script) => `${script.url} ${(script.gzipBytes / 1024).toFixed(1)} KiB`).join(', '),
  };
}

/** The paths of the scripts that hold `text` (another page's copy, say): what a page ships and never shows. */
export function scriptsHolding(scripts: readonly LoadedScript[], text: string): string[] {
  return scripts.filter((script) => script.text.includes(text)).map((script) => script.url);
}

/** What only the SPA fetches: a route screen or its shell. */
const SPA_CODE = /\.route-|\/spa-/;

/**
 * The scripts a page loaded stay within the budget (the listing explains a failure), and none of
 * them matches `spaCode`: the page ran as an island page, not as the SPA.
 */
export function expectIslandPageCode(scripts: readonly LoadedScript[], page: string, spaCode: RegExp = SPA_CODE): void {
  const { totalKiB, listing } = scriptTotals(scripts);
  expect(totalKiB, `JS loaded by ${page} (gzip): ${listing}`).toBeLessThanOrEqual(PAGE_JS_BUDGET_KIB);
  expect(
    scripts.map((script) => script.url),
    'no SPA code: no route screen, no router shell',
  ).not.toContainEqual(expect.stringMatching(spaCode));
}

/**
 * Page errors and console errors and warnings (where React reports a hydration mismatch and the
 * browser a CSP violation), except those `expected` says are the page working as designed.
 */
export function recordConsoleProblems(page: Page, expected: (text: string) => boolean = () => false): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if ((message.type() === 'error' || message.type() === 'warning') && !expected(message.text())) problems.push(message.text());
  });
  return problems;
}

/**
 * Records, from before any script of the page runs, each call that makes an Intl formatter
 * (toLocaleString and its kin make one too): a page's first one loads ICU's data on the main
 * thread, 10–20 ms here and four times that on a phone, so buyer pages format by hand
 * (contracts/money.ts, content/dates.ts). Read the list with `intlFormattingCalls`.
 */
export async function watchIntlFormatting(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const calls: string[] = [];
    (window as { intlFormattingCalls?: string[] }).intlFormattingCalls = calls;
    const note = (name: string) => calls.push(`${name} ${new Error().stack?.split('\n')[3]?.trim() ?? ''}`);
    for (const name of ['NumberFormat', 'DateTimeFormat', 'PluralRules', 'RelativeTimeFormat', 'ListFormat'] as const) {
      const original = Intl[name] as unknown as (...args: unknown[]) => unknown;
      (Intl as unknown as Record<string, unknown>)[name] = new Proxy(original, {
        construct: (target, args, newTarget) => (note(`Intl.${name}`), Reflect.construct(target, args, newTarget) as object),
        apply: (target, self, args) => (note(`Intl.${name}`), Reflect.apply(target, self, args)),
      });
    }
    const methods: [object, string][] = [
      [Number.prototype, 'toLocaleString'],
      [Date.prototype, 'toLocaleString'],
      [Date.prototype, 'toLocaleDateString'],
      [Date.prototype, 'toLocaleTimeString'],
    ];
    for (const [proto, method] of methods) {
      const original = (proto as Record<string, (...args: unknown[]) => unknown>)[method];
      Object.defineProperty(proto, method, {
        configurable: true,
        writable: true,
        value(this: unknown, ...args: unknown[]) {
          note(method);
          return original.apply(this, args);
        },
      });
    }
  });
}

/** The calls `watchIntlFormatting` saw so far, each with the line of the page's code that made it. */
export function intlFormattingCalls(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as { intlFormattingCalls?: string[] }).intlFormattingCalls ?? ['the watch was not installed']);
}
