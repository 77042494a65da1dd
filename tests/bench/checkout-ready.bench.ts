import { chromium, type Browser } from '@playwright/test';
import { type Plan, planOf, OFFERS } from '@contracts/plans';
import type { Lifecycle } from '../../scripts/lib/lifecycle';
import { step } from '../../scripts/lib/log';
import { checkoutPath } from './buyer-pages';
import { checkTime } from './web-budget';
import type { Row } from './report';

/** Issue 20: the checkout is ready at once and the payment goes through quickly, on a slow phone. */
export const CHECKOUT_TARGET = { readyMs: 1500, paidMs: 2500 } as const;

/** Stripe's test card the sandbox accepts. */
const SUCCESS_CARD = '4242 4242 4242 4242';

/** What /success says once the payment is verified: the upgrade offer for standard, the welcome otherwise (spec /success views). */
const CONFIRMED_HEADING: Record<string, string> = { standard: 'Payment Confirmed!', 'full-payment': 'Welcome to Clear!' };

/** The plans measured: the lead form's subscription and a one-time plan. */
const MEASURED_PLANS: Plan[] = [OFFERS.default, planOf('full-payment')];

const CPU_SLOWDOWN = 4;
const VIEWPORT = { width: 390, height: 844 };

/**
 * Runs in every document before its own scripts and keeps the page's own clock (epoch ms, so a
 * full navigation between checkout and /success keeps one time line):
 * - readyAt: the first moment the pay button is in the DOM and not disabled;
 * - the click on the pay button, in session storage (it outlives a document);
 * - confirmedAt: the first moment /success shows its confirmed heading.
 * A MutationObserver rather than polling from the runner, so the moment is the DOM's, not a poll's.
 */
function marksScript(heading: string): string {
  return `(() => {
  const now = () => performance.timeOrigin + performance.now();
  const stored = Number(sessionStorage.getItem('bench.payClickAt'));
  const marks = (window.__benchMarks = { readyAt: null, confirmedAt: null, payClickAt: stored || null });
  const check = () => {
    if (marks.readyAt === null) {
      const button = document.querySelector('[data-testid="pay-button"]');
      if (button && !button.disabled) marks.readyAt = now();
    }
    if (marks.confirmedAt === null && location.pathname === '/success') {
      for (const h1 of document.querySelectorAll('h1')) {
        if (h1.textContent.trim() === ${JSON.stringify(heading)} && h1.getClientRects().length) marks.confirmedAt = now();
      }
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  document.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('[data-testid="pay-button"]')) {
      marks.payClickAt = now();
      sessionStorage.setItem('bench.payClickAt', String(marks.payClickAt));
    }
  }, true);
})();`;
}

/** What marksScript keeps on the page's window (epoch ms, or null until it happens). */
interface Marks {
  readyAt: number | null;
  confirmedAt: number | null;
  payClickAt: number | null;
}

interface RunTimes {
  readyMs: number;
  paidMs: number;
}

/** Debian's Chromium through Playwright, with the flags tests/e2e/playwright.config.ts gives it. */
export async function launchChromium(life: Lifecycle): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  return { browser, close: life.own('Chromium (Playwright)', () => browser.close()) };
}

/** Null when `url` shows `text` within 20 s on a phone-sized screen; otherwise what went wrong. */
export async function pageShows(browser: Browser, url: string, text: string): Promise<string | null> {
  const context = await browser.newContext({ viewport: VIEWPORT, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: 20_000 });
    return null;
  } catch (error) {
    return `did not show "${text}": ${(error as Error).message.split('\n')[0]}`;
  } finally {
    await context.close();
  }
}

/** One buyer on a fresh browser profile (cold cache, no cookies): checkout from navigation to paid. */
async function measureOnce(browser: Browser, baseUrl: string, plan: Plan, run: string): Promise<RunTimes> {
  const heading = CONFIRMED_HEADING[plan.id];
  const context = await browser.newContext({ viewport: VIEWPORT, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
  try {
    await context.addInitScript({ content: marksScript(heading) });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    // A fresh buyer each run: nobody is refused as already a member, and no one-click offer replaces the card form.
    const buyer = { email: `bench-ready-${run}-${Date.now()}@example.com`, name: 'Bench Ready' };
    await page.goto(`${baseUrl}${checkoutPath(plan, buyer)}`, { waitUntil: 'commit' });
    const pay = page.getByTestId('pay-button');
    await pay.waitFor({ state: 'visible', timeout: 30_000 });
    // Functions, not strings: the page's CSP forbids evaluating strings.
    await page.waitForFunction(() => typeof (globalThis as unknown as { __benchMarks?: Marks }).__benchMarks?.readyAt === 'number', null, {
      timeout: 30_000,
    });
    const readyMs = await page.evaluate(
      () => (globalThis as unknown as { __benchMarks: Marks }).__benchMarks.readyAt! - performance.timeOrigin,
    );

    // Typing is the buyer's time, not the page's: the clock restarts at the click.
    const form = page.getByTestId('sandbox-card-form');
    await form.getByLabel('Card number').fill(SUCCESS_CARD);
    await form.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await form.getByLabel('CVC').fill('123');
    await pay.click();
    await page.waitForURL((url) => url.pathname === '/success', { timeout: 30_000 });
    await page.getByRole('heading', { level: 1, name: heading }).waitFor({ state: 'visible', timeout: 30_000 });
    const marks = await page
      .waitForFunction(
        () => {
          const m = (globalThis as unknown as { __benchMarks?: Marks }).__benchMarks;
          return m && m.confirmedAt !== null && m.payClickAt !== null ? m : null;
        },
        null,
        { timeout: 5_000 },
      )
      .then((handle) => handle.jsonValue());
    const paidMs = marks!.confirmedAt! - marks!.payClickAt!;
    return { readyMs, paidMs };
  } finally {
    await context.close();
  }
}

const median = (values: number[]): number | null => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * Checkout ready and paid times in Chromium (Playwright, Debian's /usr/bin/chromium as in
 * tests/e2e) with 4× CPU slowdown and a 390 px mobile viewport, no network throttling (the API is
 * on this machine): from navigating to /checkout until the pay button is enabled, and from the
 * click with the 4242 card until /success shows its confirmed heading. One discarded warm-up run
 * per plan, then the median of `runs`.
 */
export async function benchCheckoutReady(
  browser: Browser,
  baseUrl: string,
  runs: number,
): Promise<{ rows: Row[]; notes: string[]; pass: boolean }> {
  const rows: Row[] = [];
  const notes: string[] = [];
  let pass = true;
  for (const plan of MEASURED_PLANS) {
    const times: RunTimes[] = [];
    for (let run = 0; run <= runs; run++) {
      step(run === 0 ? `Checkout ready ${plan.id}: warm-up run` : `Checkout ready ${plan.id} run ${run}/${runs} (4× CPU, 390 px)`);
      try {
        const measured = await measureOnce(browser, baseUrl, plan, `${plan.id}-${run}`);
        if (run > 0) times.push(measured);
      } catch (error) {
        notes.push(`${plan.id} run ${run === 0 ? 'warm-up' : run} not measured: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    const ready = checkTime(median(times.map((t) => t.readyMs)), CHECKOUT_TARGET.readyMs);
    const paid = checkTime(median(times.map((t) => t.paidMs)), CHECKOUT_TARGET.paidMs);
    pass &&= ready.pass && paid.pass;
    const spread = (pick: (t: RunTimes) => number) =>
      times.length ? `${seconds(Math.min(...times.map(pick)))}–${seconds(Math.max(...times.map(pick)))}` : '–';
    rows.push({
      checkout: `/checkout?plan=${plan.id}`,
      runs: `${times.length}/${runs}`,
      [`ready (≤ ${seconds(CHECKOUT_TARGET.readyMs)})`]: ready.cell,
      'ready range': spread((t) => t.readyMs),
      [`paid (≤ ${seconds(CHECKOUT_TARGET.paidMs)})`]: paid.cell,
      'paid range': spread((t) => t.paidMs),
    });
  }
  return { rows, notes, pass };
}
