import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Lifecycle } from '../../scripts/lib/lifecycle';
import { step } from '../../scripts/lib/log';
import { repoRoot, startApp, startThrowawayData } from '../../scripts/lib/stack';
import { seedDemoTestimonials } from '../../scripts/seed-demo';

// lighthouse and chrome-launcher are ESM-only; a real dynamic import keeps TypeScript from
// turning it into require().
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
}

interface LighthouseResult {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; details?: { items?: NetworkItem[] } }>;
}

/**
 * Lighthouse (mobile emulation, simulated slow 4G and 4x CPU slowdown) against the landing page
 * served by the real API from the production build, in Debian's Chromium.
 */
export async function benchWeb(life: Lifecycle): Promise<void> {
  const runs = Number(process.env.BENCH_WEB_RUNS ?? 3);
  const data = await startThrowawayData(life, { name: 'benchweb', pgPort: 54350, redisPort: 6393 });
  await seedDemoTestimonials(data.databaseUrl);
  const app = await startApp(life, data, 3300, { LOG_LEVEL: 'warn' });
  const chromeLauncher = await importEsm<typeof import('chrome-launcher')>('chrome-launcher');
  const { default: lighthouse } = await importEsm<{ default: (url: string, flags: object) => Promise<{ lhr: LighthouseResult }> }>('lighthouse');
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const stopChrome = life.own('Chromium', async () => chrome.kill());
  try {
    const results: LighthouseResult[] = [];
    for (let i = 1; i <= runs; i++) {
      step(`Lighthouse run ${i}/${runs} on ${app.url}/ (mobile)`);
      const { lhr } = await lighthouse(`${app.url}/`, { port: chrome.port, output: 'json', logLevel: 'error' });
      results.push(lhr);
    }
    const median = (pick: (r: LighthouseResult) => number) => {
      const values = results.map(pick).sort((a, b) => a - b);
      return values[Math.floor(values.length / 2)];
    };
    const score = (id: string) => median((r) => Math.round((r.categories[id]?.score ?? 0) * 100));
    const metric = (id: string) => median((r) => r.audits[id]?.numericValue ?? NaN);
    const requests = results[0].audits['network-requests']?.details?.items ?? [];
    const assets = await Promise.all(
      requests
        .filter((item) => item.url.startsWith(app.url) && (item.resourceType === 'Script' || item.resourceType === 'Stylesheet'))
        .map(async (item) => ({ ...item, gzip: gzipSync(Buffer.from(await (await fetch(item.url)).arrayBuffer()), { level: 9 }).length })),
    );
    const documentBytes = requests.find((item) => item.resourceType === 'Document')?.transferSize ?? 0;
    const third = requests.filter((item) => !item.url.startsWith(app.url) && !item.url.startsWith('data:'));
    const sum = (type: string, key: 'gzip' | 'transferSize') => assets.filter((a) => a.resourceType === type).reduce((t, a) => t + (a[key] ?? 0), 0);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const outDir = join(repoRoot, 'test-results');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'lighthouse.json'), JSON.stringify(results[results.length - 1], null, 2));
    process.stdout.write(
      [
        '',
        `Landing page / (Lighthouse, mobile, median of ${runs})`,
        `  scores       performance ${score('performance')}   accessibility ${score('accessibility')}   best-practices ${score('best-practices')}   seo ${score('seo')}`,
        `  metrics      LCP ${(metric('largest-contentful-paint') / 1000).toFixed(2)} s   FCP ${(metric('first-contentful-paint') / 1000).toFixed(2)} s   TBT ${metric('total-blocking-time').toFixed(0)} ms   CLS ${metric('cumulative-layout-shift').toFixed(3)}`,
        `  JS loaded    ${kb(sum('Script', 'gzip'))} gzip (${kb(sum('Script', 'transferSize'))} on the wire) in ${assets.filter((a) => a.resourceType === 'Script').length} file(s)`,
        `  CSS loaded   ${kb(sum('Stylesheet', 'gzip'))} gzip as files (${kb(sum('Stylesheet', 'transferSize'))} on the wire); landing CSS is inlined in the HTML`,
        `  HTML         ${kb(documentBytes)} on the wire (prerendered page with its CSS)`,
        `  third-party  ${third.length} request(s)${third.length ? ': ' + third.map((t) => new URL(t.url).host).join(', ') : ''}`,
        `  report       test-results/lighthouse.json`,
        '',
      ].join('\n'),
    );
  } finally {
    await stopChrome();
    await app.stop();
    await data.stop();
  }
}
