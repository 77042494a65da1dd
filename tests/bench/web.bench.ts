import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Lifecycle } from '../../scripts/lib/lifecycle';
import { step } from '../../scripts/lib/log';
import { freePort } from '../../scripts/lib/ports';
import { startApp, startThrowawayData } from '../../scripts/lib/stack';
import { seedDemoTestimonials } from '../../scripts/seed-demo';
import { SmtpSink } from '../fakes/smtp-sink';
import { buyerPages } from './buyer-pages';
import { benchCheckoutReady, CHECKOUT_TARGET, launchChromium, pageShows } from './checkout-ready.bench';
import { benchDir, BenchReport, type Row } from './report';
import { budgetVerdict, checkPage, pageVerdict, type FigureCheck } from './web-budget';

// lighthouse and chrome-launcher are ESM-only; a real dynamic import keeps TypeScript from
// turning it into require().
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
}

interface Audit {
  numericValue?: number;
  scoreDisplayMode?: string;
  errorMessage?: string;
  details?: { items?: NetworkItem[] };
}

interface LighthouseResult {
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null }>;
  audits: Record<string, Audit | undefined>;
}

type RunLighthouse = (url: string, flags: object) => Promise<{ lhr: LighthouseResult } | undefined>;

/** One figure of one run: the value, or why Lighthouse could not give it. */
type Measured = { value: number } | { missing: string };

const CATEGORIES = [
  ['performance', 'perf'],
  ['accessibility', 'a11y'],
  ['best-practices', 'best pr.'],
  ['seo', 'seo'],
] as const;

const METRICS = [
  { id: 'largest-contentful-paint', label: 'LCP', format: (ms: number) => `${(ms / 1000).toFixed(2)} s` },
  { id: 'first-contentful-paint', label: 'FCP', format: (ms: number) => `${(ms / 1000).toFixed(2)} s` },
  { id: 'total-blocking-time', label: 'TBT', format: (ms: number) => `${ms.toFixed(0)} ms` },
  { id: 'cumulative-layout-shift', label: 'CLS', format: (shift: number) => shift.toFixed(3) },
] as const;

/**
 * A run can fail as a whole (`runtimeError`, e.g. NO_FCP or a protocol timeout) or lose one audit
 * (`scoreDisplayMode: "error"`), and then the figure is simply absent. The old bench turned that
 * absence into NaN, and sorting with a NaN in the list puts it anywhere, so one bad run could print
 * `LCP NaN s` as the "median". Absent figures are now named with their reason and left out.
 */
function measure(
  result: LighthouseResult | undefined,
  pick: (r: LighthouseResult) => { value: number | null | undefined; error?: string },
): Measured {
  if (!result) return { missing: 'Lighthouse returned no result' };
  if (result.runtimeError) return { missing: `${result.runtimeError.code}: ${result.runtimeError.message}` };
  const { value, error } = pick(result);
  if (typeof value === 'number' && Number.isFinite(value)) return { value };
  return { missing: error ?? 'not in the report' };
}

function metricOf(id: string) {
  return (r: LighthouseResult) => ({ value: r.audits[id]?.numericValue, error: r.audits[id]?.errorMessage });
}

function scoreOf(id: string) {
  return (r: LighthouseResult) => {
    const score = r.categories[id]?.score;
    return { value: typeof score === 'number' ? Math.round(score * 100) : null, error: `the ${id} category has no score` };
  };
}

/** The median of the measured runs; a cell says how many runs measured it when some did not. */
function summarise(samples: Measured[], format: (n: number) => string): { cell: string; missing: string[] } {
  const values = samples.flatMap((s) => ('value' in s ? [s.value] : [])).sort((a, b) => a - b);
  const missing = samples.flatMap((s) => ('missing' in s ? [s.missing] : []));
  if (!values.length) return { cell: 'not measured', missing };
  const median = values.length % 2 ? values[(values.length - 1) / 2] : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
  return { cell: missing.length ? `${format(median)} (${values.length}/${samples.length})` : format(median), missing };
}

/** Attempts after a run Lighthouse itself reports as failed, before the run counts as not measured. */
const RETRIES = 2;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Scripts and stylesheets the page loaded from its own origin: bytes on the wire, and at maximum gzip for comparison across servers. */
async function assetBytes(result: LighthouseResult | undefined, origin: string, gzipOf: (url: string) => Promise<number>) {
  const items = (result?.audits['network-requests']?.details?.items ?? []).filter((item) => item.url.startsWith(origin));
  const sized = await Promise.all(
    items
      .filter((item) => item.resourceType === 'Script' || item.resourceType === 'Stylesheet')
      .map(async (item) => ({ ...item, gzip: await gzipOf(item.url) })),
  );
  const sum = (type: string, key: 'gzip' | 'transferSize') =>
    sized.filter((a) => a.resourceType === type).reduce((t, a) => t + (a[key] ?? 0), 0);
  return {
    measured: items.length > 0,
    jsFiles: sized.filter((a) => a.resourceType === 'Script').length,
    jsGzip: sum('Script', 'gzip'),
    jsWire: sum('Script', 'transferSize'),
    cssGzip: sum('Stylesheet', 'gzip'),
    cssWire: sum('Stylesheet', 'transferSize'),
    htmlWire: items.find((item) => item.resourceType === 'Document')?.transferSize ?? 0,
  };
}

type AssetBytes = Awaited<ReturnType<typeof assetBytes>>;

/** The budget's figures of one run, or why the run gave none. */
function budgetFigures(result: LighthouseResult | undefined) {
  return {
    performance: measure(result, scoreOf('performance')),
    lcpMs: measure(result, metricOf('largest-contentful-paint')),
    tbtMs: measure(result, metricOf('total-blocking-time')),
    cls: measure(result, metricOf('cumulative-layout-shift')),
  };
}

const medianOf = (samples: Measured[]): number | null => {
  const values = samples.flatMap((s) => ('value' in s ? [s.value] : [])).sort((a, b) => a - b);
  if (!values.length) return null;
  return values.length % 2 ? values[(values.length - 1) / 2] : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
};

/**
 * Lighthouse (its default mobile emulation: simulated slow 4G and 4x CPU slowdown) on every page a
 * buyer sees, served by the real API from the production build, in Debian's Chromium, each held
 * to the one budget (web-budget.ts); then the checkout's ready and paid times
 * (checkout-ready.bench.ts). Median of BENCH_WEB_RUNS runs (default 5) per page and
 * BENCH_CHECKOUT_RUNS (default 5) per checkout plan. Returns whether everything is within budget
 * and target; printing it is the bench's job, failing on it the caller's (`--enforce-budget`).
 */
export async function benchWeb(life: Lifecycle): Promise<boolean> {
  const runs = Math.max(1, Math.floor(Number(process.env.BENCH_WEB_RUNS ?? 5)) || 5);
  const checkoutRuns = Math.max(0, Math.floor(Number(process.env.BENCH_CHECKOUT_RUNS ?? 5)));
  const data = await startThrowawayData(life, { name: 'benchweb', pgPort: await freePort(), redisPort: await freePort() });
  await seedDemoTestimonials(data.databaseUrl);
  // The account sign-in links arrive by e-mail: a sink on this machine receives them.
  const smtp = new SmtpSink();
  await smtp.start();
  const stopSmtp = life.own('SMTP sink', () => smtp.stop());
  // One visitor on 127.0.0.1 loads checkout, /blackcard and /account again and again: lift the per-client limits meant for people.
  const app = await startApp(life, data, await freePort(), {
    LOG_LEVEL: 'warn',
    INVITATION_DELIVERY: 'instant',
    SMTP_URL: smtp.url,
    RATE_LIMIT_WRITES: '10000',
    // Lighthouse's throttled Chromium shares the cores: never shed the page being measured.
    SHED_EVENT_LOOP_DELAY_MS: '10000',
    SHED_MONEY_EVENT_LOOP_DELAY_MS: '10000',
    RATE_LIMIT_INTENTS_PER_CLIENT: '10000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '10000',
    RATE_LIMIT_TOKEN_CHECKS: '10000',
    RATE_LIMIT_ACCOUNT_LINKS_PER_CLIENT: '10000',
    RATE_LIMIT_ACCOUNT_LINKS_PER_EMAIL: '10000',
    // Each Lighthouse run of the link page mails one more link to the same buyer.
    ACCOUNT_LINKS_PER_EMAIL_PER_HOUR: '100',
  });
  const chromeLauncher = await importEsm<typeof import('chrome-launcher')>('chrome-launcher');
  const { default: lighthouse } = await importEsm<{ default: RunLighthouse }>('lighthouse');
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  const stopChrome = life.own('Chromium', async () => chrome.kill());
  const playwright = await launchChromium(life);
  const report = new BenchReport('pages');
  const runOnce = async (url: string): Promise<LighthouseResult | undefined> => {
    try {
      return (await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' }))?.lhr;
    } catch (error) {
      return { runtimeError: { code: 'THREW', message: (error as Error).message }, categories: {}, audits: {} };
    }
  };
  // Each asset is fetched and gzipped once, however many runs and pages load it.
  const gzipCache = new Map<string, Promise<number>>();
  const gzipOf = (url: string) => {
    let size = gzipCache.get(url);
    if (!size) {
      size = fetch(url).then(async (response) => gzipSync(Buffer.from(await response.arrayBuffer()), { level: 9 }).length);
      gzipCache.set(url, size);
    }
    return size;
  };
  try {
    const scoreRows: Row[] = [];
    const byteRows: Row[] = [];
    const budgetRows: Row[] = [];
    const budgetPages: { name: string; checks: FigureCheck[]; problem: string | null }[] = [];
    const failures: string[] = [];
    mkdirSync(benchDir, { recursive: true });
    step('Preparing the buyer pages: a lead, an invitee, two sandbox payments');
    // BENCH_WEB_PAGES=/,/checkout measures only those pages (names as printed).
    const only = process.env.BENCH_WEB_PAGES?.split(',').map((p) => p.trim());
    for (const page of (await buyerPages(app.url, smtp)).filter((p) => !only || only.includes(p.name))) {
      step(`${page.name}: checking it shows "${page.shows}"`);
      const problem = await pageShows(playwright.browser, `${app.url}${await page.path()}`, page.shows);
      if (problem) failures.push(`${page.name} ${problem}`);
      const results: (LighthouseResult | undefined)[] = [];
      for (let i = 1; i <= runs; i++) {
        step(`Lighthouse ${page.name} run ${i}/${runs} (mobile)`);
        let result = await runOnce(`${app.url}${await page.path()}`);
        // A lost trace (NO_NAVSTART, seen in about one run in five here) is Lighthouse's own fault and it says to run again.
        for (let retry = 1; retry <= RETRIES && (!result || result.runtimeError); retry++) {
          failures.push(`${page.name} run ${i} retried after ${result?.runtimeError?.code ?? 'no result'}`);
          result = await runOnce(`${app.url}${await page.path()}`);
        }
        results.push(result);
      }
      const row: Row = { page: page.name };
      const note = (label: string, missing: string[]) => {
        for (const reason of new Set(missing))
          failures.push(`${page.name} ${label} not measured in ${missing.filter((m) => m === reason).length} of ${runs} run(s): ${reason}`);
      };
      for (const [id, label] of CATEGORIES) {
        const { cell, missing } = summarise(
          results.map((r) => measure(r, scoreOf(id))),
          String,
        );
        row[label] = cell;
        note(`${label} score`, missing);
      }
      for (const metric of METRICS) {
        const { cell, missing } = summarise(
          results.map((r) => measure(r, metricOf(metric.id))),
          metric.format,
        );
        row[metric.label] = cell;
        note(metric.label, missing);
      }
      scoreRows.push(row);

      // The bytes of every run that loaded anything: lazy chunks can differ between runs, so the median too.
      const loaded = results.filter((r) => r && !r.runtimeError && r.audits['network-requests']?.details?.items?.length);
      const bytesByRun = await Promise.all(loaded.map((r) => assetBytes(r, app.url, gzipOf)));
      const medianBytes = (pick: (b: AssetBytes) => number) => medianOf(bytesByRun.map((b) => ({ value: pick(b) })));
      const jsGzip = medianBytes((b) => b.jsGzip);
      const cell = (bytes: number | null) => (bytes === null ? 'not measured' : kib(bytes));
      byteRows.push({
        page: page.name,
        'JS gzip': cell(jsGzip),
        'JS wire': cell(medianBytes((b) => b.jsWire)),
        'JS files': medianBytes((b) => b.jsFiles),
        'CSS gzip': cell(medianBytes((b) => b.cssGzip)),
        'CSS wire': cell(medianBytes((b) => b.cssWire)),
        'HTML wire': cell(medianBytes((b) => b.htmlWire)),
      });

      const perRun = results.map(budgetFigures);
      const checks = checkPage({
        performance: medianOf(perRun.map((r) => r.performance)),
        lcpMs: medianOf(perRun.map((r) => r.lcpMs)),
        tbtMs: medianOf(perRun.map((r) => r.tbtMs)),
        cls: medianOf(perRun.map((r) => r.cls)),
        jsGzipBytes: jsGzip,
      });
      budgetPages.push({ name: page.name, checks, problem });
      budgetRows.push({
        page: page.name,
        ...Object.fromEntries(checks.map((c) => [`${c.label} (${c.limit})`, `${c.value} ${c.pass ? 'pass' : 'FAIL'}`])),
        verdict: problem ? 'not the page a buyer sees (see the notes)' : pageVerdict(checks),
      });

      if (loaded[0])
        writeFileSync(
          join(benchDir, `lighthouse${page.name === '/' ? '-landing' : page.name.replace(/[/ ]+/g, '-')}.json`),
          JSON.stringify(loaded[0], null, 2),
        );
    }
    report.table(`Pages: Lighthouse, mobile, median of ${runs} run(s)`, scoreRows, ...failures);
    report.table(
      'Pages: what each page loads from the site (wire = as served, brotli; gzip = level 9, for comparison)',
      byteRows,
      `median of the runs that loaded the page; JS gzip is the first-party JavaScript the budget counts`,
      'full Lighthouse reports: test-results/bench/lighthouse-*.json',
    );
    const verdict = budgetVerdict(budgetPages);
    report.table(
      `Pages against the budget (every page a buyer sees; Lighthouse mobile, median of ${runs} run(s))`,
      budgetRows,
      ...budgetPages.flatMap((p) => (p.problem ? [`${p.name} ${p.problem}`] : [])),
      verdict.line,
    );
    await stopChrome();

    let checkoutPass = true;
    if (checkoutRuns > 0) {
      const checkout = await benchCheckoutReady(playwright.browser, app.url, checkoutRuns);
      checkoutPass = checkout.pass;
      report.table(
        `Checkout ready and paid (Chromium, 4× CPU slowdown, 390 px mobile viewport, no network throttling; median of ${checkoutRuns} run(s))`,
        checkout.rows,
        'ready: navigation start → pay button enabled (cold cache, fresh buyer each run)',
        "paid: click with the 4242 card → /success shows 'Payment Confirmed!' (standard) or 'Welcome to Clear!' (full-payment)",
        ...checkout.notes,
        `VERDICT: ${checkout.pass ? 'PASS' : 'FAIL'}, target ready ≤ ${(CHECKOUT_TARGET.readyMs / 1000).toFixed(1)} s and paid ≤ ${(CHECKOUT_TARGET.paidMs / 1000).toFixed(1)} s`,
      );
    }
    return verdict.pass && checkoutPass;
  } finally {
    await stopChrome();
    await playwright.close();
    await app.stop();
    await stopSmtp();
    await data.stop();
  }
}
