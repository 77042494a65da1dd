// BullMQ's shape of ioredis options: ioredis's own type admits a null retryStrategy, which BullMQ 6 rejects.
import type { RedisOptions } from 'bullmq';

/**
 * Turns REDIS_URL into ioredis options (BullMQ wants options, not a URL). `password`
 * (REDIS_PASSWORD) applies when the URL carries none.
 */
export function redisOptionsFromUrl(url: string, password?: string): RedisOptions {
  const u = new URL(url);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 6379,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : password,
    db: Number.isFinite(db) ? db : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
  };
}

/**
 * The API never lets a request wait on Redis: commands fail at once while Redis is away
 * (the outbox keeps the work). Workers block on Redis by design and retry forever.
 */
export function connectionFor(role: 'producer' | 'worker', config: { REDIS_URL: string; REDIS_PASSWORD?: string }): RedisOptions {
  const base = redisOptionsFromUrl(config.REDIS_URL, config.REDIS_PASSWORD);
  return role === 'producer'
    ? { ...base, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 }
    : { ...base, maxRetriesPerRequest: null };
}
