import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { migrate } from '../migrate';
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

/** A fresh Postgres and Redis in a temp folder, migrated, for tests and benchmarks. */
export async function startThrowawayData(opts: { name: string; pgPort: number; redisPort: number; redisPersistent?: boolean }): Promise<ThrowawayData> {
  const scratch = mkdtempSync(join(tmpdir(), `clear-${opts.name}-`));
  const pg = await startEmbeddedPostgres({ dir: join(scratch, 'pg'), port: opts.pgPort, database: `clear_${opts.name}`, persistent: false, fresh: true });
  const redis = await startRedis({ port: opts.redisPort, dir: join(scratch, 'redis'), persistent: opts.redisPersistent ?? false }).catch(async (err) => {
    await pg.stop();
    throw err;
  });
  await migrate(pg.url);
  return {
    databaseUrl: pg.url,
    redisUrl: redis.url,
    scratch,
    async stop() {
      await redis.stop();
      await pg.stop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

export interface RunningApp {
  url: string;
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** The compiled API (serving the built SPA) and worker as child processes, as in production. */
export async function startApp(data: ThrowawayData, port: number, extraEnv: NodeJS.ProcessEnv): Promise<RunningApp> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: data.databaseUrl,
    REDIS_URL: data.redisUrl,
    STATIC_DIR: join(repoRoot, 'frontend', 'dist'),
    ...extraEnv,
  };
  const processes: Managed[] = [
    startProcess('Worker', process.execPath, [join(repoRoot, 'dist', 'worker', 'src', 'main.js')], env),
    startProcess('API', process.execPath, [join(repoRoot, 'dist', 'backend', 'src', 'main.js')], env),
  ];
  const stop = async () => {
    for (const p of processes) await p.stop();
  };
  await waitForHttp(`http://127.0.0.1:${port}/api/health`, processes[1].child).catch(async (err) => {
    await stop();
    throw err;
  });
  return { url: `http://127.0.0.1:${port}`, env, stop };
}
