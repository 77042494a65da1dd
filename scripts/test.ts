import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FakeAffiliateServer } from '../tests/fakes/affiliate-server';
import { FakeStripeServer } from '../tests/fakes/stripe-server';
import { SmtpSink } from '../tests/fakes/smtp-sink';
import { SmtpSinkInspector } from '../tests/fakes/smtp-sink-inspector';
import { ANALYTICS_SITE_SETTINGS } from '../tests/support/analytics-site-settings';
import { Lifecycle } from './lib/lifecycle';
import { step } from './lib/log';
import { freePort } from './lib/ports';
import { repoRoot as root, startApp, startThrowawayData, ThrowawayData, type RunningApp } from './lib/stack';
import { createDatabase } from './lib/postgres';
import { migrate } from './migrate';

const resultsDir = join(root, 'test-results');
const SUITES = ['static', 'unit', 'integration', 'model', 'faults', 'fuzz', 'e2e'] as const;
type Suite = (typeof SUITES)[number];

interface Tally {
  suite: string;
  passed: number;
  failed: number;
  skipped: number;
}

/** Async on purpose: the fake third-party servers live in this process and must keep answering. */
async function runSuite(
  life: Lifecycle,
  suite: string,
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  readTally: (status: number | null) => Omit<Tally, 'suite'>,
): Promise<Tally> {
  step(`Running ${suite} tests`);
  const started = Date.now();
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env });
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (status) => resolveExit(status)));
  const release = life.own(`${suite} tests`, async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  const status = await exited;
  await release();
  let tally: Omit<Tally, 'suite'>;
  try {
    tally = readTally(status);
  } catch {
    tally = { passed: 0, failed: 1, skipped: 0 };
  }
  if (status !== 0 && tally.failed === 0) tally.failed = 1;
  step(`${suite}: ${tally.passed} passed, ${tally.failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return { suite, ...tally };
}

/** A check that passes or fails as a whole (type-checking, linting). */
const checkTally = (status: number | null) => (status === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 });

const jestTally = (file: string) => () => {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + report.numRuntimeErrorTestSuites,
    // it.skip, it.todo, and every test a stray it.only left out.
    skipped: report.numPendingTests + report.numTodoTests,
  };
};

const playwrightTally = (file: string) => () => {
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
};

/** The port a variable names, or a free one: a fixed default would collide with whatever else runs. */
async function portFrom(variable: string): Promise<number> {
  return process.env[variable] ? Number(process.env[variable]) : freePort();
}

/**
 * Arguments naming spec files run only those and imply their suite: `tests/e2e/csp.spec.ts:109`
 * goes to Playwright, `tests/integration/leads.spec.ts` or `backend/src/…/x.spec.ts` to jest.
 */
const isSpecFilter = (arg: string) => /\.spec\.ts(:\d+)?$/.test(arg);

function suiteOfSpec(file: string): Suite {
  const match = /(?:^|\/)tests\/(e2e|integration|model|faults|fuzz)\//.exec(file);
  return match ? (match[1] as Suite) : 'unit';
}

/** A truthy CI variable, as CI services set it ('true', '1'). */
const onCi = () => !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

function chosenSuites(allArgs: string[]): Suite[] {
  const args = allArgs.filter((a) => !isSpecFilter(a));
  for (const spec of allArgs.filter(isSpecFilter)) if (!args.includes(suiteOfSpec(spec))) args.push(suiteOfSpec(spec));
  const unknown = args.filter((a) => !(SUITES as readonly string[]).includes(a));
  if (unknown.length) throw new Error(`Unknown test suite "${unknown.join(', ')}"; choose from: ${SUITES.join(', ')} (none means all)`);
  if (args.length) return args as Suite[];
  if (process.env.SKIP_E2E === '1' && onCi()) {
    throw new Error(
      "SKIP_E2E=1 is refused when CI is set: the browser suite holds the only checks of the spec's copy and journeys. Unset SKIP_E2E.",
    );
  }
  return process.env.SKIP_E2E === '1' ? SUITES.filter((s) => s !== 'e2e') : [...SUITES];
}

/**
 * `--runs N`, `--seed S` and `--path P` are the model suite's (`npm run test:model -- --runs 500`,
 * or the seed and path a failure printed to replay it): handed to it as MODEL_RUNS, MODEL_SEED and
 * MODEL_PATH. Resolves with the other arguments.
 */
function takeModelOptions(args: string[]): string[] {
  const rest: string[] = [];
  const names: Record<string, string> = { '--runs': 'MODEL_RUNS', '--seed': 'MODEL_SEED', '--path': 'MODEL_PATH' };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split('=', 2);
    const variable = names[flag];
    if (!variable) {
      rest.push(args[i]);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined || value === '') throw new Error(`${flag} needs a value, for example ${flag} 500`);
    if (flag !== '--path' && !/^-?\d+$/.test(value)) throw new Error(`${flag} must be a whole number, not "${value}"`);
    process.env[variable] = value;
  }
  return rest;
}

/** Why a suite was left out of this run, for the summary. */
function whyNotRun(args: string[]): string {
  if (args.length) return 'not asked for (npm test names its suites or spec files)';
  return 'SKIP_E2E=1';
}

/**
 * `npm test [static] [unit] [integration] [faults] [fuzz] [e2e] [tests/e2e/x.spec.ts[:line]…]`: type-checking and lint, a throwaway Postgres and Redis, then
 * unit, integration, fault-injection and malformed-input tests (jest) and browser tests
 * (Playwright in Debian's Chromium) against the real API and worker serving the built SPA.
 * Everything it starts is gone when it ends, however.
 */
async function main(life: Lifecycle): Promise<number> {
  // The tests run on their own settings: no process they start reads a developer's .env.
  process.env.ENV_FILE = 'none';
  const args = takeModelOptions(process.argv.slice(2));
  const suites = chosenSuites(args);
  const specFilters = args.filter(isSpecFilter);
  mkdirSync(resultsDir, { recursive: true });
  life.ownTempDir('test-run');
  const tallies: Tally[] = [];

  if (suites.includes('static')) {
    // Every file type-checked (server, worker, SPA, scripts, every spec and test) and linted
    // (types, folder boundaries, SQL only in repositories) before anything runs.
    tallies.push(await runSuite(life, 'typecheck', 'npm', ['run', '--silent', 'typecheck'], process.env, checkTally));
    tallies.push(await runSuite(life, 'lint', 'npm', ['run', '--silent', 'lint'], process.env, checkTally));
  }

  let data: ThrowawayData | null = null;
  if (suites.some((s) => s !== 'unit' && s !== 'static')) {
    step('Starting a throwaway Postgres and Redis');
    data = await startThrowawayData(life, {
      name: 'test',
      pgPort: await portFrom('TEST_PG_PORT'),
      redisPort: await portFrom('TEST_REDIS_PORT'),
    });
  }

  const jestProjects = suites.filter((s): s is Exclude<Suite, 'e2e' | 'static'> => s !== 'e2e' && s !== 'static');
  if (jestProjects.length) {
    const jestReport = join(resultsDir, 'jest.json');
    const env = { ...process.env, NODE_ENV: 'test', ...(data && { DATABASE_URL: data.databaseUrl, REDIS_URL: data.redisUrl }) };
    tallies.push(
      await runSuite(
        life,
        jestProjects.join(' + '),
        process.execPath,
        [
          require.resolve('jest/bin/jest'),
          '--ci',
          '--runInBand',
          '--forceExit',
          '--json',
          `--outputFile=${jestReport}`,
          // Before --selectProjects, which takes every argument after it as a project name.
          ...specFilters.filter((f) => suiteOfSpec(f) !== 'e2e'),
          '--selectProjects',
          ...jestProjects,
        ],
        env,
        jestTally(jestReport),
      ),
    );
  }

  if (suites.includes('e2e') && data)
    tallies.push(
      await runBrowserSuite(
        life,
        data,
        specFilters.filter((f) => suiteOfSpec(f) === 'e2e'),
      ),
    );

  const total = tallies.reduce((t, s) => ({ passed: t.passed + s.passed, failed: t.failed + s.failed, skipped: t.skipped + s.skipped }), {
    passed: 0,
    failed: 0,
    skipped: 0,
  });
  const lines = tallies.map(
    (t) =>
      `  ${t.suite.padEnd(22)} ${t.passed} passed, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped or left out by a focus` : ''}`,
  );
  for (const suite of SUITES.filter((s) => !suites.includes(s))) lines.push(`  ${suite.padEnd(22)} did not run: ${whyNotRun(args)}`);
  process.stdout.write('\n' + lines.join('\n') + '\n\n');
  process.stdout.write(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}\n`);
  if (total.skipped > 0) {
    // A skipped test is a check that silently stopped checking; a focused one (.only) skips all
    // the others. Either fails the run: remove the .skip/.only/.todo, or delete the test.
    process.stdout.write(`A skipped or focused test fails the run: ${total.skipped} test(s) did not run.\n`);
    return 1;
  }
  return total.failed > 0 ? 1 : 0;
}

async function runBrowserSuite(life: Lifecycle, data: ThrowawayData, specFilters: string[]): Promise<Tally> {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(chromium))
    throw new Error(`Chromium not found at ${chromium}: run the tests with "npm test", which installs it or prints how`);
  const affiliate = new FakeAffiliateServer();
  await affiliate.start();
  life.own('Fake affiliate service', () => affiliate.stop());
  const smtp = new SmtpSink();
  await smtp.start();
  life.own('SMTP sink', () => smtp.stop());
  const inspector = new SmtpSinkInspector(smtp);
  const messagesUrl = await inspector.start();
  life.own('SMTP sink inspector', () => inspector.stop());
  const appEnv: NodeJS.ProcessEnv = {
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    // Every browser test comes from 127.0.0.1: per-client limits sized for one person would
    // throttle the suite itself. The limits have their own integration tests.
    RATE_LIMIT_WRITES: '10000',
    RATE_LIMIT_INTENTS_PER_CLIENT: '10000',
    RATE_LIMIT_TOKEN_CHECKS: '10000',
    RATE_LIMIT_COUPON_CHECKS: '10000',
    ADMIN_LOGINS_PER_CLIENT: '10000',
    ADMIN_LOGINS_PER_EMAIL: '10000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '10000',
    // Chromium, Playwright and the app share the machine's cores: a starved process's late timer
    // would read as a stalled event loop and shed the suite's own requests. Shedding has its own
    // integration and fuzz tests (load-shedding.spec.ts).
    SHED_EVENT_LOOP_DELAY_MS: '10000',
    SHED_MONEY_EVENT_LOOP_DELAY_MS: '10000',
    // A pause's reminder is owed within seconds of the sandbox clock reaching it, not within the hour.
    PAUSE_REMINDER_INTERVAL_S: '2',
    AFFILIATE_API_URL: affiliate.url,
    AFFILIATE_API_KEY: 'e2e-key',
    SMTP_URL: smtp.url,
  };
  const app = await startApp(life, data, await portFrom('TEST_APP_PORT'), appEnv);
  // The same product with invitations delivered by e-mail only, for that mode's journeys. It
  // shares the data, the SMTP sink and the first one's worker, which needs the same secrets.
  const sharedSecrets = { INVITATION_TOKEN_KEY: app.env.INVITATION_TOKEN_KEY, SANDBOX_WEBHOOK_SECRET: app.env.SANDBOX_WEBHOOK_SECRET };
  const emailMode = await startApp(
    life,
    data,
    await freePort(),
    { ...appEnv, ...sharedSecrets, INVITATION_DELIVERY: 'email' },
    { worker: false },
  );
  // Another API whose leads owe their abandoned-checkout reminder after a second (the first one's
  // hour outlasts the suite), for the reminder's journey; the first one's worker sends it.
  const reminderMode = await startApp(
    life,
    data,
    await freePort(),
    { ...appEnv, ...sharedSecrets, ABANDONED_CHECKOUT_DELAY_S: '1' },
    { worker: false },
  );
  // The same build as another site: GA4, the Meta pixel and its own members-area links set at
  // run time, for the analytics journeys (the first one has none). Its purchases' server-side
  // events would be the first one's worker's, which has no analytics ids.
  const analyticsSite = await startApp(
    life,
    data,
    await freePort(),
    { ...appEnv, ...sharedSecrets, ...ANALYTICS_SITE_SETTINGS },
    { worker: false },
  );
  // The product as a Stripe deployment, against the Stripe fake (Stripe.js itself is a stand-in the
  // browser tests serve). Its jobs go to a Redis database of their own: the sandbox worker must not
  // take them, and nothing in these journeys waits for a worker.
  const stripe = new FakeStripeServer();
  stripe.distinctIntents = true;
  await stripe.start();
  life.own('Stripe fake', () => stripe.stop());
  const stripeMode = await startApp(
    life,
    data,
    await freePort(),
    {
      ...appEnv,
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_fakekey',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_fakekey',
      STRIPE_WEBHOOK_SECRET: 'whsec_e2e',
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(stripe.port),
      STRIPE_API_PROTOCOL: 'http',
      REDIS_URL: `${data.redisUrl}/1`,
    },
    { worker: false },
  );
  const exampleSite = runsSpec(specFilters, 'site-example.spec.ts') ? await startExampleSite(life, data, appEnv) : null;
  const report = join(resultsDir, 'playwright.json');
  return await runSuite(
    life,
    'browser (Playwright)',
    process.execPath,
    [
      require.resolve('@playwright/test/cli'),
      'test',
      '-c',
      'tests/e2e/playwright.config.ts',
      '--reporter=list,json',
      ...(specFilters.length ? ['--no-deps', ...specFilters] : []),
    ],
    {
      ...app.env,
      E2E_BASE_URL: app.url,
      CHROMIUM_PATH: chromium,
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      AFFILIATE_CALLS_URL: affiliate.url.replace('/api/v1', '/__calls'),
      SMTP_MESSAGES_URL: messagesUrl,
      E2E_EMAIL_MODE_URL: emailMode.url,
      E2E_REMINDER_MODE_URL: reminderMode.url,
      E2E_STRIPE_MODE_URL: stripeMode.url,
      E2E_ANALYTICS_SITE_URL: analyticsSite.url,
      ...(exampleSite && { E2E_SITE_EXAMPLE_URL: exampleSite.url }),
    },
    playwrightTally(report),
  );
}

/** Whether the browser run includes the spec file named `spec`: every spec when none is named. */
const runsSpec = (specFilters: string[], spec: string): boolean =>
  !specFilters.length || specFilters.some((f) => f.split(':')[0].endsWith(`/${spec}`) || f.split(':')[0] === spec);

/**
 * The example site (tests/fixtures/site-example) for its browser journey: the web app built from it
 * (Vite only, into the run's temp folder; the server build is the same for every site), served by
 * an API and a worker started with SITE_DIR on it. They get a database and a Redis database of
 * their own: a worker of the default site must never take the example's outbox rows or jobs (its
 * e-mails would be the default site's). E-mails go to the run's SMTP sink.
 */
async function startExampleSite(life: Lifecycle, data: ThrowawayData, appEnv: NodeJS.ProcessEnv): Promise<RunningApp> {
  step('Building the example site (tests/fixtures/site-example)');
  const siteDir = join(root, 'tests', 'fixtures', 'site-example');
  const webDir = mkdtempSync(join(tmpdir(), 'site-example-web-'));
  const vite = join(root, 'node_modules', '.bin', 'vite');
  const buildEnv = { ...process.env, SITE_DIR: siteDir, WEB_OUT_DIR: webDir };
  const cwd = join(root, 'frontend');
  await promisify(execFile)(vite, ['build'], { cwd, env: buildEnv, maxBuffer: 64 * 1024 * 1024 });
  await promisify(execFile)(vite, ['build', '--ssr', 'src/entry-server.tsx'], { cwd, env: buildEnv, maxBuffer: 64 * 1024 * 1024 });

  const databaseUrl = await createDatabase(data.databaseUrl, 'clear_site_example');
  await migrate(databaseUrl);
  const exampleData = { ...data, databaseUrl, redisUrl: `${data.redisUrl}/2` };
  return startApp(life, exampleData, await freePort(), { ...appEnv, SITE_DIR: siteDir, STATIC_DIR: webDir });
}

const life = new Lifecycle({ quiet: true });
life.run(() => main(life));
