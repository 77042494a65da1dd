import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { ApiProcess, appEnv, startApi } from '../../scripts/lib/app-processes';
import { Lifecycle } from '../../scripts/lib/lifecycle';
import { join } from 'node:path';

/**
 * No sandbox by accident: a production process without Stripe keys and without PAYMENT_PROVIDER
 * must not fall back to the sandbox (where test card 4242 "pays" and real effects fire), nor run
 * the sandbox with its public development secret. The compiled API, worker and migration, exactly
 * as deployed, check every setting before connecting anywhere, then exit 1 naming the variable.
 */
const root = join(__dirname, '..', '..');
const MAINS = {
  API: join(root, 'dist', 'backend', 'src', 'main.js'),
  worker: join(root, 'dist', 'worker', 'src', 'main.js'),
  migration: join(root, 'dist', 'scripts', 'migrate.js'),
};

function productionEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATABASE_URL: process.env.DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL,
    INVITATION_TOKEN_KEY: randomBytes(32).toString('hex'),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...extra,
  };
  return env;
}

function run(main: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after 20 s:\n${output}`));
    }, 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: Date.now() - started });
    });
  });
}

/** A port nothing listens on (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

beforeAll(() => {
  for (const main of Object.values(MAINS)) if (!existsSync(main)) throw new Error(`${main} is missing: run "npm run build:server" first`);
});

describe.each(Object.entries(MAINS))('the %s in production', (_name, main) => {
  it('with no Stripe keys and no PAYMENT_PROVIDER exits 1 naming PAYMENT_PROVIDER', async () => {
    const { code, output } = await run(main, productionEnv({}));
    expect(code).toBe(1);
    expect(output).toMatch(/PAYMENT_PROVIDER \(missing\): set PAYMENT_PROVIDER=stripe .* or PAYMENT_PROVIDER=sandbox/);
  });

  it('with PAYMENT_PROVIDER=stripe but no Stripe keys exits 1 naming the keys', async () => {
    const { code, output } = await run(main, productionEnv({ PAYMENT_PROVIDER: 'stripe' }));
    expect(code).toBe(1);
    expect(output).toContain(
      'STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET: all three are required with PAYMENT_PROVIDER=stripe',
    );
  });

  it('checks PAYMENT_PROVIDER before connecting: with no database to reach it still names the variable, at once', async () => {
    const [pgPort, redisPort] = [await closedPort(), await closedPort()];
    const { code, output } = await run(
      main,
      productionEnv({ DATABASE_URL: `postgres://clear@127.0.0.1:${pgPort}/clear`, REDIS_URL: `redis://127.0.0.1:${redisPort}` }),
    );
    expect(code).toBe(1);
    expect(output).toMatch(/PAYMENT_PROVIDER \(missing\)/);
    expect(output).not.toMatch(/Unable to connect to the database|ECONNREFUSED|Migration failed/);
  });

  it('with PAYMENT_PROVIDER=sandbox and no secret of its own exits 1 naming SANDBOX_WEBHOOK_SECRET and how to make one', async () => {
    for (const secret of [undefined, 'whsec_sandboxlocalonly0000000000', 'whsec_only16characters00']) {
      const { code, output } = await run(main, productionEnv({ PAYMENT_PROVIDER: 'sandbox', SANDBOX_WEBHOOK_SECRET: secret }));
      expect(code).toBe(1);
      expect(output).toContain('SANDBOX_WEBHOOK_SECRET (');
      expect(output).toContain(
        'must be a secret of your own, at least 32 characters, when PAYMENT_PROVIDER=sandbox runs with NODE_ENV=production',
      );
      expect(output).toContain('openssl rand -hex 24');
      if (secret) expect(output).not.toContain(secret);
    }
  });

  it('refuses a provider it does not know, naming the choices', async () => {
    const { code, output } = await run(main, productionEnv({ PAYMENT_PROVIDER: 'paypal' }));
    expect(code).toBe(1);
    expect(output).toContain('PAYMENT_PROVIDER ("paypal"): must be "stripe" or "sandbox"');
  });
});

describe('the API in production with the sandbox and a secret of its own', () => {
  const life = new Lifecycle({ quiet: true, ownsProcess: false });
  let api: ApiProcess;
  beforeAll(async () => {
    const data = { databaseUrl: process.env.DATABASE_URL!, redisUrl: process.env.REDIS_URL! };
    // appEnv: NODE_ENV=production, PAYMENT_PROVIDER=sandbox and a throwaway SANDBOX_WEBHOOK_SECRET.
    api = await startApi(life, appEnv(data, await closedPort(), { LOG_LEVEL: 'warn' }));
  });
  afterAll(() => life.undoAll());

  it('starts, and answers an anonymous POST /api/sandbox/clock and /api/docs 404', async () => {
    const clock = await fetch(`${api.url}/api/sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceDays: 30 }),
    });
    expect(clock.status).toBe(404);
    expect((await fetch(`${api.url}/api/docs-json`)).status).toBe(404);
  });
});
