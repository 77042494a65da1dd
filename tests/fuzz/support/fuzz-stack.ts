import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { appEnv, repoRoot, startApi, startWorker } from '../../../scripts/lib/app-processes';
import { Lifecycle } from '../../../scripts/lib/lifecycle';
import { freePort } from '../../../scripts/lib/ports';
import type { Managed } from '../../../scripts/lib/processes';

export interface FuzzStack {
  url: string;
  env: NodeJS.ProcessEnv;
  api: Managed;
  worker: Managed | null;
  stop(): Promise<void>;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this suite through "npm test fuzz"`);
  return value;
}

/**
 * The compiled API (and worker) as child processes over the test run's Postgres and Redis, as in
 * production: a crash shows as a dead process, not as a thrown error inside jest.
 */
export async function startFuzzStack(extraEnv: NodeJS.ProcessEnv, opts: { worker?: boolean } = {}): Promise<FuzzStack> {
  const life = new Lifecycle({ quiet: true, ownsProcess: false });
  const env = appEnv({ databaseUrl: required('DATABASE_URL'), redisUrl: required('REDIS_URL') }, await freePort(), {
    LOG_LEVEL: 'error',
    ...extraEnv,
  });
  try {
    const worker = opts.worker === false ? null : startWorker(life, env, 'Fuzz worker');
    const api = await startApi(life, env, 'Fuzz API');
    return { url: api.url, env, api, worker, stop: () => life.undoAll() };
  } catch (err) {
    await life.undoAll();
    throw err;
  }
}

/** An admin account through the real CLI (the only way one is made); returns its password. */
export function createAdmin(emailAddress: string, password: string): void {
  const cli = join(repoRoot, 'dist', 'scripts', 'admin-create.js');
  const created = spawnSync(process.execPath, [cli, '--email', emailAddress], {
    input: `${password}\n`,
    env: process.env,
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`admin:create failed: ${created.stderr}`);
}

/** Limits far above what the fuzz sends, so it exercises validation rather than the 429 path. */
export const RAISED_LIMITS = {
  RATE_LIMIT_WRITES: '1000000',
  RATE_LIMIT_INTENTS_PER_CLIENT: '1000000',
  RATE_LIMIT_INTENTS_PER_EMAIL: '1000000',
  RATE_LIMIT_TOKEN_CHECKS: '1000000',
  RATE_LIMIT_ACCOUNT_LINKS_PER_CLIENT: '1000000',
  RATE_LIMIT_ACCOUNT_LINKS_PER_EMAIL: '1000000',
  ADMIN_LOGINS_PER_CLIENT: '1000000',
  ADMIN_LOGINS_PER_EMAIL: '1000000',
};
