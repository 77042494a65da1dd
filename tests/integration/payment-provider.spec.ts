import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * No sandbox by accident: a production process without Stripe keys and without PAYMENT_PROVIDER
 * must not fall back to the sandbox (where test card 4242 "pays" and real effects fire). The
 * compiled API and worker, exactly as deployed, exit 1 within seconds and name the variable.
 */
const root = join(__dirname, '..', '..');
const MAINS = {
  API: join(root, 'dist', 'backend', 'src', 'main.js'),
  worker: join(root, 'dist', 'worker', 'src', 'main.js'),
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

  it('refuses a provider it does not know, naming the choices', async () => {
    const { code, output } = await run(main, productionEnv({ PAYMENT_PROVIDER: 'paypal' }));
    expect(code).toBe(1);
    expect(output).toContain('PAYMENT_PROVIDER ("paypal"): must be "stripe" or "sandbox"');
  });
});
