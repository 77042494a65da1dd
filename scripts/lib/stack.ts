import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { migrate } from '../migrate';
import type { Lifecycle } from './lifecycle';
import { startEmbeddedPostgres } from './postgres';
import { Managed, startProcess, waitForHttp } from './processes';
import { startRedis } from './redis';

export const repoRoot = resolve(__dirname, '..', '..', '..');

export interface ThrowawayData {
  databaseUrl: string;
  redisUrl: string;
  scratch: string;
  stop(): Promise<void>;
}

/**
 * A fresh Postgres and Redis in a temp folder, migrated, for tests and benchmarks. Each piece is
 * owned by `life` from the moment it exists, so a failure or a signal halfway leaves nothing.
 */
export async function startThrowawayData(
  life: Lifecycle,
  opts: { name: string; pgPort: number; redisPort: number; redisPersistent?: boolean },
): Promise<ThrowawayData> {
  const scratch = mkdtempSync(join(tmpdir(), `clear-${opts.name}-`));
  const removeScratch = life.own('Scratch folder', async () => rmSync(scratch, { recursive: true, force: true }));
  const pg = await startEmbeddedPostgres({ dir: join(scratch, 'pg'), port: opts.pgPort, database: `clear_${opts.name}`, persistent: false, fresh: true });
  const stopPg = life.own('Postgres', pg.stop);
  const redis = await startRedis({ port: opts.redisPort, dir: join(scratch, 'redis'), persistent: opts.redisPersistent ?? false });
  const stopRedis = life.own('Redis', redis.stop);
  await migrate(pg.url);
  return {
    databaseUrl: pg.url,
    redisUrl: redis.url,
    scratch,
    async stop() {
      await stopRedis();
      await stopPg();
      await removeScratch();
    },
  };
}

export interface RunningApp {
  url: string;
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** The environment the compiled API and worker get over `data`, as in production. */
export function appEnv(data: ThrowawayData, port: number, extraEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: data.databaseUrl,
    REDIS_URL: data.redisUrl,
    STATIC_DIR: join(repoRoot, 'frontend', 'dist'),
    // Production mode requires a real key; a throwaway stack gets a throwaway one.
    INVITATION_TOKEN_KEY: randomBytes(32).toString('hex'),
    ...extraEnv,
  };
}

/** One compiled worker process; several may run over the same data (BullMQ shares the work). */
export function startWorker(life: Lifecycle, env: NodeJS.ProcessEnv, name = 'Worker'): Managed & { release(): Promise<void> } {
  const worker = startProcess(name, process.execPath, [join(repoRoot, 'dist', 'worker', 'src', 'main.js')], env);
  return { ...worker, release: life.own(name, () => worker.stop()) };
}

/** One compiled API process (serving the built SPA), resolved once its health route answers. */
export async function startApi(life: Lifecycle, env: NodeJS.ProcessEnv, name = 'API'): Promise<Managed & { url: string; release(): Promise<void> }> {
  const api = startProcess(name, process.execPath, [join(repoRoot, 'dist', 'backend', 'src', 'main.js')], env);
  const release = life.own(name, () => api.stop());
  const url = `http://127.0.0.1:${env.PORT}`;
  await waitForHttp(`${url}/api/health`, api.child);
  return { ...api, url, release };
}

/** The compiled API and worker as child processes, as in production. */
export async function startApp(
  life: Lifecycle,
  data: ThrowawayData,
  port: number,
  extraEnv: NodeJS.ProcessEnv,
  opts: { worker?: boolean } = {},
): Promise<RunningApp> {
  const env = appEnv(data, port, extraEnv);
  // A second API over the same data needs no worker of its own: the first one's serves both.
  const worker = opts.worker === false ? null : startWorker(life, env);
  const api = await startApi(life, env);
  return {
    url: api.url,
    env,
    async stop() {
      await api.release();
      await worker?.release();
    },
  };
}
