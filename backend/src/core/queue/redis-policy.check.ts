import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { JobProducer } from './job-producer';

export interface RedisPolicyReport {
  evictionPolicy: string | null;
  persistence: boolean | null;
}

/**
 * BullMQ loses jobs when Redis evicts keys, and loses the last writes on restart without
 * persistence. Managed Redis may forbid CONFIG; then we can only say we could not check.
 */
export async function checkRedisPolicy(client: Redis, logger: Logger): Promise<RedisPolicyReport> {
  const report: RedisPolicyReport = { evictionPolicy: null, persistence: null };
  try {
    const [, policy] = (await client.config('GET', 'maxmemory-policy')) as [string, string];
    const [, aof] = (await client.config('GET', 'appendonly')) as [string, string];
    const [, save] = (await client.config('GET', 'save')) as [string, string];
    report.evictionPolicy = policy;
    report.persistence = aof === 'yes' || Boolean(save && save.trim());
  } catch (err) {
    logger.warn(`Could not read the Redis configuration (${(err as Error).message}); make sure maxmemory-policy is noeviction.`);
    return report;
  }
  if (report.evictionPolicy !== 'noeviction') {
    logger.error(
      `Redis maxmemory-policy is "${report.evictionPolicy}": BullMQ needs "noeviction" or queued jobs can be silently evicted. Run: redis-cli CONFIG SET maxmemory-policy noeviction`,
    );
  }
  if (!report.persistence) {
    logger.warn(
      'Redis persistence is off (no AOF, no RDB snapshots): a Redis restart loses queued jobs until the outbox relay re-dispatches them.',
    );
  }
  if (report.evictionPolicy === 'noeviction' && report.persistence) logger.log('Redis is set up for BullMQ (noeviction, persistence on)');
  return report;
}

/** Runs the check once Redis answers, in the background: start-up never waits on Redis. */
@Injectable()
export class RedisPolicyCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('RedisPolicy');

  constructor(private readonly producer: JobProducer) {}

  onApplicationBootstrap(): void {
    const [queue] = this.producer.allQueues();
    void queue.backend.client
      .then((client) => checkRedisPolicy(client as unknown as Redis, this.logger))
      .catch((err: Error) => this.logger.warn(`Redis policy not checked yet: ${err.message}`));
  }
}
