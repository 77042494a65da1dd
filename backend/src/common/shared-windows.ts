import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import Redis from 'ioredis';
import { RedisConfig } from '@core/config/config-sections';
import { connectionFor } from '@core/queue/redis-options';
import { MemoryWindows, WindowCount, WindowStore } from './fixed-window-counter';

/** Every rate-limit key starts with this, so limits can be told apart from BullMQ's keys. */
export const RATE_LIMIT_KEY_PREFIX = 'rate-limit:';

/** A limit check must not hold a request up for long when Redis is slow: past this it counts locally. */
const COMMAND_TIMEOUT_MS = 500;

/** Longest boot waits for the first connection (a Redis outage must not stop the API from starting). */
const CONNECT_WAIT_MS = 2000;

/** INCR and the window's expiry in one round trip, atomically: no key is ever left without an expiry. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
`;

type CountingRedis = Redis & { hitWindow(key: string, windowMs: number): Promise<[number, number]> };

/**
 * @fastify/rate-limit's store contract as its runtime calls it: `incr` gets the route's window,
 * `child` the route's merged options (its published typings omit both).
 */
interface RouteStore {
  incr(key: string, done: (err: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void;
  child(route: { routeInfo: { method: string | string[]; url: string } }): RouteStore;
}

/**
 * Fixed windows in Redis, shared by every API instance: a client that switches instances gets
 * each limit once in total. While Redis is away the API must keep taking leads, so each instance
 * falls back to counting in its own memory (a client could then get the limit once per instance)
 * and says so once per outage.
 */
@Injectable()
export class SharedWindows extends WindowStore implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SharedWindows.name);
  private readonly redis: CountingRedis;
  private readonly local = new MemoryWindows();
  private counting: 'shared' | 'local' = 'shared';

  constructor(config: RedisConfig) {
    super();
    const redis = new Redis({
      ...connectionFor('producer', config),
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectionName: 'rate-limits',
    });
    // Connection errors surface as failed hits below; without a listener ioredis prints each one.
    redis.on('error', () => undefined);
    redis.defineCommand('hitWindow', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as CountingRedis;
  }

  /** Gives the connection a moment, so the first requests after boot are counted in Redis; boot never waits on a Redis that is down. */
  async onModuleInit(): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done).off('error', done);
        resolve();
      };
      const timer = setTimeout(done, CONNECT_WAIT_MS);
      this.redis.once('ready', done).once('error', done);
    });
  }

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const fullKey = RATE_LIMIT_KEY_PREFIX + key;
    if (this.redis.status === 'ready') {
      try {
        const [count, ttlMs] = await this.redis.hitWindow(fullKey, windowMs);
        this.countingIn('shared');
        return { count, ttlMs };
      } catch (err) {
        this.countingIn('local', (err as Error).message);
      }
    } else {
      this.countingIn('local', `connection ${this.redis.status}`);
    }
    return this.local.increment(fullKey, windowMs);
  }

  async count(key: string): Promise<number> {
    const fullKey = RATE_LIMIT_KEY_PREFIX + key;
    if (this.redis.status === 'ready') {
      try {
        const value = await this.redis.get(fullKey);
        this.countingIn('shared');
        return Number(value ?? 0);
      } catch (err) {
        this.countingIn('local', (err as Error).message);
      }
    }
    return this.local.count(fullKey);
  }

  async clear(key: string): Promise<void> {
    const fullKey = RATE_LIMIT_KEY_PREFIX + key;
    await this.local.clear(fullKey);
    if (this.redis.status !== 'ready') return;
    try {
      await this.redis.del(fullKey);
    } catch (err) {
      this.countingIn('local', (err as Error).message);
    }
  }

  /** The store to register @fastify/rate-limit with: keys `<name>:<METHOD><url>:<client>`, one window per route. */
  fastifyStore(name: string): FastifyRateLimitStoreCtor {
    const increment = (key: string, windowMs: number) => this.increment(key, windowMs);
    class FastifyRouteStore implements RouteStore {
      constructor(
        _params: unknown,
        private readonly prefix = `${name}:`,
      ) {}

      incr(key: string, done: Parameters<RouteStore['incr']>[1], timeWindow: number): void {
        increment(this.prefix + key, timeWindow).then(
          ({ count, ttlMs }) => done(null, { current: count, ttl: ttlMs }),
          (err: Error) => done(err),
        );
      }

      child(route: Parameters<RouteStore['child']>[0]): RouteStore {
        return new FastifyRouteStore(route, `${name}:${String(route.routeInfo.method)}${route.routeInfo.url}:`);
      }
    }
    return FastifyRouteStore as unknown as FastifyRateLimitStoreCtor;
  }

  onApplicationShutdown(): void {
    // QUIT would wait for a Redis that may be away; nothing is owed on this connection.
    this.redis.disconnect();
  }

  /** Logs the switch between shared and per-instance counting once, without any key (keys hold addresses). */
  private countingIn(mode: 'shared' | 'local', reason?: string): void {
    if (this.counting === mode) return;
    this.counting = mode;
    if (mode === 'local')
      this.logger.warn(`Rate limits cannot reach Redis (${reason}); each API instance counts on its own until it returns`);
    else this.logger.log('Rate limits are shared through Redis again');
  }
}
