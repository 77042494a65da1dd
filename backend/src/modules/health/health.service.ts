import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { HealthResponse } from '../../shared/contracts/api-types';
import { JobProducer } from '../../shared/queue/job-producer';
import { withTimeout } from '../../shared/with-timeout';

/** A readiness probe must answer even while a dependency hangs. */
const PROBE_TIMEOUT_MS = 2000;

@Injectable()
export class HealthService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly producer: JobProducer,
  ) {}

  async readiness(): Promise<HealthResponse> {
    const [pg, queues] = await Promise.all([this.postgres(), this.queues()]);
    const redisUp = queues !== null;
    return {
      status: pg.up && redisUp ? 'ok' : 'degraded',
      postgres: pg.up ? 'up' : 'down',
      redis: redisUp ? 'up' : 'down',
      queues: queues ?? {},
      outboxPending: pg.outboxPending,
    };
  }

  private async postgres(): Promise<{ up: boolean; outboxPending: number }> {
    try {
      const [row] = await withTimeout<Array<{ pending: string }>>(
        this.dataSource.query(`SELECT count(*) AS pending FROM outbox WHERE completed_at IS NULL AND failed_at IS NULL`),
        PROBE_TIMEOUT_MS,
        'Postgres probe',
      );
      return { up: true, outboxPending: Number(row.pending) };
    } catch {
      return { up: false, outboxPending: -1 };
    }
  }

  private async queues(): Promise<HealthResponse['queues'] | null> {
    try {
      const entries = await withTimeout(
        Promise.all(
          this.producer.allQueues().map(async (queue) => {
            const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
            return [
              queue.name,
              { waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0, failed: counts.failed ?? 0 },
            ] as const;
          }),
        ),
        PROBE_TIMEOUT_MS,
        'Redis probe',
      );
      return Object.fromEntries(entries);
    } catch {
      return null;
    }
  }
}
