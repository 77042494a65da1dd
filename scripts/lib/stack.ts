import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../migrate';
import type { Lifecycle } from './lifecycle';
import { startEmbeddedPostgres } from './postgres';
import { appEnv, repoRoot, startApi, startWorker } from './app-processes';
import { startRedis } from './redis';

export { appEnv, repoRoot, startApi, startWorker };

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
  opts: { name: string; pgPort: number; redisPort: number; redisPersistent?: boolean; pgSettings?: string[] },
): Promise<ThrowawayData> {
  const scratch = mkdtempSync(join(tmpdir(), `clear-${opts.name}-`));
  const removeScratch = life.own('Scratch folder', () => Promise.resolve(rmSync(scratch, { recursive: true, force: true })));
  const pg = await startEmbeddedPostgres({
    dir: join(scratch, 'pg'),
    port: opts.pgPort,
    database: `clear_${opts.name}`,
    persistent: false,
    fresh: true,
    settings: opts.pgSettings,
  });
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
