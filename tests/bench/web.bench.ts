import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PLANS } from '@contracts/plans';
import type { Lifecycle } from '../../scripts/lib/lifecycle';
import { step } from '../../scripts/lib/log';
import { freePort } from '../../scripts/lib/ports';
import { startApp, startThrowawayData } from '../../scripts/lib/stack';
import { seedDemoTestimonials } from '../../scripts/seed-demo';
import { benchDir, BenchReport, type Row } from './report';

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

interface BenchPage {
  name: string;
  path: string;
}

/** The funnel's pages with what each needs: a lead's query string for checkout and upsell, an invitee's token for /blackcard. */
async function funnelPages(baseUrl: string): Promise<BenchPage[]> {
  const visitor = { email: 'bench-visitor@example.com', name: 'Bench Visitor' };
  const post = async (path: string, body: object) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  await post('/api/leads', visitor);
  const { accessToken } = await post('/api/invitation-gate', visitor);
  if (typeof accessToken !== 'string')
    throw new Error('POST /api/invitation-gate returned no accessToken: the bench needs INVITATION_DELIVERY=instant');
  // What the landing page's lead form navigates to (frontend lead-request.ts checkoutPath).
  const checkoutQuery = new URLSearchParams({ plan: PLANS.standard.id, email: visitor.email, name: visitor.name });
  return [
    { name: '/', path: '/' },
    { name: '/invitation', path: '/invitation' },
    { name: '/blackcard', path: `/blackcard?${new URLSearchParams({ token: accessToken }).toString()}` },
    { name: '/checkout', path: `/checkout?${checkoutQuery.toString()}` },
    { name: '/upsell', path: `/upsell?${new URLSearchParams(visitor).toString()}` },
  ];
}

/** Scripts and stylesheets the page loaded from its own origin: bytes on the wire, and at maximum gzip for comparison across servers. */
async function assetBytes(result: LighthouseResult | undefined, origin: string) {
  const items = (result?.audits['network-requests']?.details?.items ?? []).filter((item) => item.url.startsWith(origin));
  const sized = await Promise.all(
    items
      .filter((item) => item.resourceType === 'Script' || item.resourceType === 'Stylesheet')
      .map(async (item) => ({ ...item, gzip: gzipSync(Buffer.from(await (await fetch(item.url)).arrayBuffer()), { level: 9 }).length })),
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

/**
 * Lighthouse (its default mobile emulation: simulated slow 4G and 4x CPU slowdown) on each funnel
 * page, served by the real API from the production build, in Debian's Chromium. Median of
 * BENCH_WEB_RUNS runs (default 5) per page.
 */
export async function benchWeb(life: Lifecycle): Promise<void> {
  const runs = Math.max(1, Math.floor(Number(process.env.BENCH_WEB_RUNS ?? 5)) || 5);
  const data = await startThrowawayData(life, { name: 'benchweb', pgPort: await freePort(), redisPort: await freePort() });
  await seedDemoTestimonials(data.databaseUrl);
  // One visitor on 127.0.0.1 loads checkout and /blackcard again and again: lift the per-client limits meant for people.
  const app = await startApp(life, data, await freePort(), {
    LOG_LEVEL: 'warn',
    INVITATION_DELIVERY: 'instant',
    RATE_LIMIT_WRITES: '10000',
    RATE_LIMIT_INTENTS_PER_CLIENT: '10000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '10000',
    RATE_LIMIT_TOKEN_CHECKS: '10000',
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
  const report = new BenchReport('pages');
  const runOnce = async (url: string): Promise<LighthouseResult | undefined> => {
    try {
      return (await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' }))?.lhr;
    } catch (error) {
      return { runtimeError: { code: 'THREW', message: (error as Error).message }, categories: {}, audits: {} };
    }
  };
  try {
    const scoreRows: Row[] = [];
    const byteRows: Row[] = [];
    const failures: string[] = [];
    mkdirSync(benchDir, { recursive: true });
    // BENCH_WEB_PAGES=/,/checkout measures only those pages.
    const only = process.env.BENCH_WEB_PAGES?.split(',').map((p) => p.trim());
    for (const page of (await funnelPages(app.url)).filter((p) => !only || only.includes(p.name))) {
      const results: (LighthouseResult | undefined)[] = [];
      for (let i = 1; i <= runs; i++) {
        step(`Lighthouse ${page.name} run ${i}/${runs} (mobile)`);
        let result = await runOnce(`${app.url}${page.path}`);
        // A lost trace (NO_NAVSTART, seen in about one run in five here) is Lighthouse's own fault and it says to run again.
        for (let retry = 1; retry <= RETRIES && (!result || result.runtimeError); retry++) {
          failures.push(`${page.name} run ${i} retried after ${result?.runtimeError?.code ?? 'no result'}`);
          result = await runOnce(`${app.url}${page.path}`);
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

      const measuredRun = results.find((r) => r && !r.runtimeError && r.audits['network-requests']?.details?.items?.length);
      const bytes = await assetBytes(measuredRun, app.url);
      byteRows.push(
        bytes.measured
          ? {
              page: page.name,
              'JS gzip': kib(bytes.jsGzip),
              'JS wire': kib(bytes.jsWire),
              'JS files': bytes.jsFiles,
              'CSS gzip': kib(bytes.cssGzip),
              'CSS wire': kib(bytes.cssWire),
              'HTML wire': kib(bytes.htmlWire),
            }
          : {
              page: page.name,
              'JS gzip': 'not measured',
              'JS wire': 'not measured',
              'JS files': null,
              'CSS gzip': 'not measured',
              'CSS wire': 'not measured',
              'HTML wire': 'not measured',
            },
      );
      if (measuredRun)
        writeFileSync(
          join(benchDir, `lighthouse${page.name === '/' ? '-landing' : page.name.replace(/\//g, '-')}.json`),
          JSON.stringify(measuredRun, null, 2),
        );
    }
    report.table(
      `Pages: Lighthouse, mobile, median of ${runs} run(s)`,
      scoreRows,
      'targets for /: performance 100, TBT ≤ 50 ms, LCP ≤ 1.5 s, CLS 0',
      ...failures,
    );
    report.table(
      'Pages: what each page loads from the site (wire = as served, brotli; gzip = level 9, for comparison)',
      byteRows,
      'target for /: JS ≤ 75 KiB gzip; the landing CSS is inlined in its HTML',
      'full Lighthouse reports: test-results/bench/lighthouse-*.json',
    );
  } finally {
    await stopChrome();
    await app.stop();
    await data.stop();
  }
}
