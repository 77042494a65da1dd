import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { migrate } from '../migrate';
import type { Lifecycle } from './lifecycle';
import { startEmbeddedPostgres } from './postgres';
import { startProcess, waitForHttp } from './processes';
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

/** The compiled API (serving the built SPA) and worker as child processes, as in production. */
export async function startApp(
  life: Lifecycle,
  data: ThrowawayData,
  port: number,
  extraEnv: NodeJS.ProcessEnv,
  opts: { worker?: boolean } = {},
): Promise<RunningApp> {
  const env: NodeJS.ProcessEnv = {
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
  // A second API over the same data needs no worker of its own: the first one's serves both.
  const worker = opts.worker === false ? null : startProcess('Worker', process.execPath, [join(repoRoot, 'dist', 'worker', 'src', 'main.js')], env);
  const stopWorker = worker ? life.own('Worker', () => worker.stop()) : async () => undefined;
  const api = startProcess('API', process.execPath, [join(repoRoot, 'dist', 'backend', 'src', 'main.js')], env);
  const stopApi = life.own('API', () => api.stop());
  await waitForHttp(`http://127.0.0.1:${port}/api/health`, api.child);
  return {
    url: `http://127.0.0.1:${port}`,
    env,
    async stop() {
      await stopApi();
      await stopWorker();
    },
  };
}
