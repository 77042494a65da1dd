import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FakeStripeServer } from '../fakes/stripe-server';
import { descendantsOf, eventually, exitOf, freePort, isAlive, portIsFree, waitForOutput } from './support/process-tree';

/**
 * The README commands as a process manager sees them: `npm start`, `npm test` and their
 * bootstrap, run as child processes against their compiled output, then stopped or broken on
 * purpose. Whatever they started must be gone afterwards, and every port free again.
 */
const root = resolve(__dirname, '..', '..');
const bootstrap = join(root, 'scripts', 'bootstrap.mjs');
const STOP_BOUND_MS = 30_000;

/** The environment of a user's shell: none of the test run's own database or queue settings. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'NODE_ENV', 'PORT', 'LOG_LEVEL', 'SMTP_URL', 'JEST_WORKER_ID']) delete env[name];
  return { ...env, LOG_LEVEL: 'warn', ...extra };
}

interface StartedProduct {
  child: ChildProcess;
  ports: number[];
  dataDir: string;
  env: NodeJS.ProcessEnv;
  processes: number[];
}

async function startProduct(launcher: 'bootstrap' | 'npm', extra: Record<string, string> = {}): Promise<StartedProduct> {
  const dataDir = mkdtempSync(join(tmpdir(), 'clear-start-test-'));
  const [port, pg, redis, mailWeb, mailSmtp] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
  const env = cleanEnv({
    DATA_DIR: dataDir,
    PORT: String(port),
    EMBEDDED_PG_PORT: String(pg),
    LOCAL_REDIS_PORT: String(redis),
    MAIL_WEB_PORT: String(mailWeb),
    MAIL_SMTP_PORT: String(mailSmtp),
    SEED_DEMO: '0',
    ...extra,
  });
  const child =
    launcher === 'npm'
      ? spawn('npm', ['start', '--silent'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(process.execPath, [bootstrap, 'start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  await waitForOutput(child, 'The funnel is running', 120_000);
  const processes = descendantsOf(child.pid!);
  return { child, ports: [port, pg, redis, mailWeb, mailSmtp], dataDir, env, processes };
}

async function expectAllGone(product: StartedProduct): Promise<void> {
  expect(await eventually(() => product.processes.every((pid) => !isAlive(pid)), STOP_BOUND_MS)).toBe(true);
  for (const port of product.ports) expect(await portIsFree(port)).toBe(true);
  expect(existsSync(join(product.dataDir, 'npm-start.json'))).toBe(false);
}

describe('npm start stops everything it started', () => {
  const leftovers: StartedProduct[] = [];
  afterEach(() => {
    // Only reached with processes alive when an assertion failed: do not leak them into later tests.
    for (const p of leftovers.splice(0)) {
      for (const pid of [p.child.pid!, ...p.processes]) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      rmSync(p.dataDir, { recursive: true, force: true });
    }
  });

  it('on SIGTERM to the bootstrap process (not to start.js); a second start says it is running', async () => {
    const product = await startProduct('bootstrap');
    leftovers.push(product);
    // start.js, Postgres (and its own helpers), Redis, the mail inbox, the worker and the API.
    expect(product.processes.length).toBeGreaterThanOrEqual(6);

    const second = spawn(process.execPath, [bootstrap, 'start'], { cwd: root, env: product.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let secondOutput = '';
    second.stdout.on('data', (c: Buffer) => (secondOutput += c.toString()));
    second.stderr.on('data', (c: Buffer) => (secondOutput += c.toString()));
    expect(await exitOf(second)).toBe(1);
    const complaint = secondOutput.split('\n').filter((line) => line.includes('already running'));
    expect(complaint).toHaveLength(1);
    expect(complaint[0]).toContain(`PORT=${product.ports[0]}`);
    expect(complaint[0]).toMatch(/kill \d+/);
    expect(secondOutput).not.toMatch(/^\s+at /m);

    product.child.kill('SIGTERM');
    expect(await exitOf(product.child)).toBe(0);
    await expectAllGone(product);
  });

  it('on SIGTERM to the npm process', async () => {
    const product = await startProduct('npm');
    leftovers.push(product);
    product.child.kill('SIGTERM');
    await exitOf(product.child);
    await expectAllGone(product);
  });

  it('when bootstrap dies without a signal it can pass on (SIGKILL)', async () => {
    const product = await startProduct('bootstrap');
    leftovers.push(product);
    product.child.kill('SIGKILL');
    await expectAllGone(product);
  });
});

describe('npm start reads .env', () => {
  const stripe = new FakeStripeServer();
  beforeAll(() => stripe.start());
  afterAll(() => stripe.stop());

  it('starts on Stripe when .env holds Stripe test keys; a variable set in the environment wins over .env', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clear-env-file-'));
    const envFile = join(dir, '.env');
    writeFileSync(
      envFile,
      [
        '# What a newcomer pastes from the Stripe dashboard; PAYMENT_PROVIDER left as .env.example has it.',
        'PAYMENT_PROVIDER=',
        'STRIPE_SECRET_KEY=sk_test_fromdotenv',
        'STRIPE_PUBLISHABLE_KEY=pk_test_fromdotenv   # overridden below',
        'STRIPE_WEBHOOK_SECRET=whsec_fromdotenv',
        'STRIPE_API_HOST=127.0.0.1',
        `STRIPE_API_PORT=${stripe.port}`,
        'STRIPE_API_PROTOCOL=http',
      ].join('\n'),
    );
    const product = await startProduct('bootstrap', { ENV_FILE: envFile, STRIPE_PUBLISHABLE_KEY: 'pk_test_fromenvironment' });
    try {
      const res = await fetch(`http://127.0.0.1:${product.ports[0]}/api/payments/config`);
      expect(await res.json()).toEqual({ provider: 'stripe', publishableKey: 'pk_test_fromenvironment' });
    } finally {
      product.child.kill('SIGTERM');
      await exitOf(product.child);
      rmSync(dir, { recursive: true, force: true });
      rmSync(product.dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm test cleans up after a failed step', () => {
  let blocker: Server;
  afterEach(() => new Promise<void>((done) => blocker.close(() => done())));

  it('stops its Postgres and Redis and removes its scratch folder when starting the app fails', async () => {
    const scratchParent = mkdtempSync(join(tmpdir(), 'clear-test-tmp-'));
    chmodSync(scratchParent, 0o755);
    const [pg, redis, app] = [await freePort(), await freePort(), await freePort()];
    // Something else holds the app's port, so the API cannot listen and that step fails.
    blocker = createServer((socket) => socket.destroy());
    await new Promise<void>((done) => blocker.listen(app, '127.0.0.1', done));
    const child = spawn(process.execPath, [join(root, 'dist', 'scripts', 'test.js'), 'e2e'], {
      cwd: root,
      env: cleanEnv({ TEST_PG_PORT: String(pg), TEST_REDIS_PORT: String(redis), TEST_APP_PORT: String(app), TMPDIR: scratchParent }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const seen = new Set<number>();
    const watch = setInterval(() => descendantsOf(child.pid!).forEach((pid) => seen.add(pid)), 100);
    await waitForOutput(child, 'Starting a throwaway Postgres and Redis', 30_000);
    const code = await exitOf(child);
    clearInterval(watch);

    expect(code).not.toBe(0);
    expect(seen.size).toBeGreaterThanOrEqual(2);
    expect([...seen].filter(isAlive)).toEqual([]);
    expect(await portIsFree(pg)).toBe(true);
    expect(await portIsFree(redis)).toBe(true);
    expect(readdirSync(scratchParent)).toEqual([]);
    rmSync(scratchParent, { recursive: true, force: true });
  });
});

describe('a missing system package', () => {
  it('stops npm test before running anything, with the exact command to run', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'clear-bin-'));
    chmodSync(bin, 0o755);
    // apt-get is there, redis-server and Chromium are not; as root the command would install
    // them, so run it as an ordinary user, who gets the command instead.
    symlinkSync('/usr/bin/apt-get', join(bin, 'apt-get'));
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const child = spawn(process.execPath, [bootstrap, 'test'], {
      cwd: root,
      env: cleanEnv({ PATH: bin, CHROMIUM_PATH: join(bin, 'chromium') }),
      stdio: ['ignore', 'pipe', 'pipe'],
      ...asUser,
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    expect(await exitOf(child)).toBe(1);
    rmSync(bin, { recursive: true, force: true });
    expect(output).toContain(
      'sudo apt-get update && sudo apt-get install -y --no-install-recommends redis-server chromium fonts-liberation',
    );
    expect(output).not.toMatch(/Installing|Compiling|Building|Starting/);
  });
});
