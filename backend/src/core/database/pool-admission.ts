import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource } from 'typeorm';

/**
 * node-pg's wording when a caller queued for a free connection longer than connectionTimeoutMillis
 * (opening a new connection that times out says "Connection terminated due to connection timeout").
 */
const POOL_QUEUE_TIMEOUT = 'timeout exceeded when trying to connect';

/**
 * Why a connection was refused: the shared connections stayed taken, the pool's line of waiting
 * callers was already too long to join, or no connection of the whole pool came back in time.
 */
export type PoolBusyReason = 'shared_connections' | 'pool_queue' | 'pool_timeout';

const REFUSALS: Record<PoolBusyReason, string> = {
  shared_connections: 'No shared database connection became free in time',
  pool_queue: 'Too many callers are already waiting for a database connection',
  pool_timeout: 'No database connection became free in time (timeout exceeded when waiting for the pool)',
};

/**
 * The pool was too busy to lend a connection in time: the server is saturated, not broken.
 * An HTTP answer for it is 503 "busy" with Retry-After, never a 500.
 */
export class PoolBusyError extends Error {
  readonly code = 'POOL_BUSY';

  constructor(readonly reason: PoolBusyReason) {
    super(REFUSALS[reason]);
    this.name = 'PoolBusyError';
  }
}

export const isPoolBusy = (err: unknown): err is PoolBusyError => err instanceof PoolBusyError;

type Release = (err?: Error | boolean) => void;
type ConnectCallback = (err: Error | undefined, client?: PgClient, release?: Release) => void;

interface PgClient {
  release: Release;
}

/** node-pg's Pool as far as admission needs it. */
interface PgPool {
  options: { max: number };
  waitingCount: number;
  connect(cb?: ConnectCallback): Promise<PgClient> | undefined;
}

/** The pg pool behind a TypeORM DataSource (initialised), or undefined. */
function pgPoolOf(dataSource: DataSource): PgPool | undefined {
  return (dataSource.driver as unknown as { master?: PgPool }).master;
}

/** One request's (or other unit of work's) standing with the pool. */
export interface AdmissionContext {
  /** Low-priority work: its connections come from the shared part of the pool only. */
  shared: boolean;
  /**
   * Work that joins no line of the pool's own callers longer than this (below the pool's
   * `maxWaiting`): a checkout being started leaves the rest of the line to purchases under way.
   */
  maxWaiting?: number;
  /** Set when the pool refused this work a connection, even if the code above caught and rewrapped the error. */
  refused?: PoolBusyReason;
}

const contexts = new AsyncLocalStorage<AdmissionContext>();

/** Why the pool refused the current unit of work a connection, if it did (whatever the code in between made of the error). */
export function poolRefusalHere(): PoolBusyReason | undefined {
  return contexts.getStore()?.refused;
}

/**
 * Runs `fn` (and everything it awaits or schedules) under `context`: with `shared`, its database
 * connections come from the shared part of the pool, never from those reserved for the money path.
 */
export function runWithAdmission<T>(context: AdmissionContext, fn: () => T): T {
  return contexts.run(context, fn);
}

export interface PoolAdmissionOptions {
  /** Connections only work not marked shared may take. */
  reserved: number;
  /** Longest shared work waits for one of the shared connections before PoolBusyError. */
  sharedWaitMs: number;
  /** Callers already waiting in the pool's own line beyond which a new one is refused at once. */
  maxWaiting: number;
}

interface Waiter {
  admit: () => void;
  timer: NodeJS.Timeout;
}

/**
 * Divides one pg pool between priority work (anything not marked shared: the money path) and
 * shared work (run with runWithAdmission({ shared: true })): shared work holds at most
 * `max - reserved` connections at a time, so `reserved` connections are always left to priority
 * work however many leads arrive. Shared callers beyond that wait in line at most `sharedWaitMs`;
 * everyone then asks the pool, which bounds the wait with its own connectionTimeoutMillis, unless
 * `maxWaiting` callers (or the caller's own lower `maxWaiting`) already wait there: then the
 * caller is refused at once. Each refusal, the pool's own queue timeout included, is a
 * PoolBusyError, which says what happened (the pool is busy; Postgres is fine).
 */
export class PoolAdmission {
  private sharedHeld = 0;
  private readonly waiters: Waiter[] = [];
  private readonly sharedLimit: number;

  constructor(
    private readonly pool: Pick<PgPool, 'waitingCount'>,
    poolSize: number,
    private readonly options: PoolAdmissionOptions,
  ) {
    this.sharedLimit = Math.max(1, poolSize - options.reserved);
  }

  /** Wraps the pool's connect (TypeORM's only way to a connection) with the admission rules. */
  static install(dataSource: DataSource, options: PoolAdmissionOptions): PoolAdmission {
    const pool = pgPoolOf(dataSource);
    if (!pool) throw new Error('The DataSource has no pg pool to divide (not initialised?)');
    const admission = new PoolAdmission(pool, pool.options.max, options);
    const connect = pool.connect.bind(pool);
    pool.connect = (cb?: ConnectCallback) => {
      if (!cb) {
        return new Promise<PgClient>((resolve, reject) =>
          admission.connect(connect, (err, client) => (err ? reject(err) : resolve(client!))),
        );
      }
      admission.connect(connect, cb);
      return undefined;
    };
    return admission;
  }

  /** Shared connections in use and shared callers waiting for one. */
  get shared(): { held: number; limit: number; waiting: number } {
    return { held: this.sharedHeld, limit: this.sharedLimit, waiting: this.waiters.length };
  }

  private connect(connect: (cb: ConnectCallback) => unknown, given: ConnectCallback): void {
    const context = contexts.getStore();
    const cb: ConnectCallback = (err, client, release) => {
      if (isPoolBusy(err) && context) context.refused ??= err.reason;
      given(err, client, release);
    };
    const maxWaiting = Math.min(context?.maxWaiting ?? this.options.maxWaiting, this.options.maxWaiting);
    if (!context?.shared) {
      this.lend(connect, cb, undefined, maxWaiting);
      return;
    }
    this.admitShared().then(
      () => this.lend(connect, cb, () => this.releaseShared(), maxWaiting),
      (err: Error) => cb(err),
    );
  }

  /** Asks the pool for a connection; `onDone` runs once when it is released or could not be had. */
  private lend(connect: (cb: ConnectCallback) => unknown, cb: ConnectCallback, onDone: (() => void) | undefined, maxWaiting: number): void {
    if (this.pool.waitingCount >= maxWaiting) {
      onDone?.();
      cb(new PoolBusyError('pool_queue'));
      return;
    }
    connect((err, client, release) => {
      if (err || !client || !release) {
        onDone?.();
        cb(err?.message === POOL_QUEUE_TIMEOUT ? new PoolBusyError('pool_timeout') : err);
        return;
      }
      if (onDone) {
        let released = false;
        const releaseOnce: Release = (releaseErr) => {
          release(releaseErr);
          if (released) return;
          released = true;
          onDone();
        };
        // TypeORM releases through the callback's function, a promise caller through client.release.
        client.release = releaseOnce;
        cb(undefined, client, releaseOnce);
        return;
      }
      cb(undefined, client, release);
    });
  }

  private admitShared(): Promise<void> {
    if (this.sharedHeld < this.sharedLimit) {
      this.sharedHeld++;
      return Promise.resolve();
    }
    if (this.options.sharedWaitMs === 0) return Promise.reject(new PoolBusyError('shared_connections'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(new PoolBusyError('shared_connections'));
        }, this.options.sharedWaitMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** A shared connection came back: the next in line takes it over (the count stays), or it is free. */
  private releaseShared(): void {
    const next = this.waiters.shift();
    if (next) next.admit();
    else this.sharedHeld--;
  }
}
