import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { HealthResponse } from '@contracts/api-types';
import { JobProducer } from '@core/queue/job-producer';
import { withTimeout } from '@core/runtime/with-timeout';

/** A readiness probe must answer even while a dependency hangs. */
const PROBE_TIMEOUT_MS = 2000;

interface OutboxCounts {
  pending: number;
  unhandled: number;
}

@Injectable()
export class HealthService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly producer: JobProducer,
  ) {}

  /**
   * The API can accept work while Postgres answers: the outbox keeps what Redis cannot take yet.
   * So only Postgres decides readiness; Redis being away is 'degraded', still ready.
   */
  async readiness(): Promise<HealthResponse> {
    const [outbox, queues] = await Promise.all([this.outbox(), this.queues()]);
    return {
      status: !outbox ? 'unavailable' : queues ? 'ok' : 'degraded',
      postgres: outbox ? 'up' : 'down',
      redis: queues ? 'up' : 'down',
      queues: queues ?? {},
      outboxPending: outbox?.pending ?? -1,
      outboxUnhandled: outbox?.unhandled ?? -1,
    };
  }

  /** Each count matches one of the outbox's partial indexes, so it stays cheap as the table grows. */
  private async outbox(): Promise<OutboxCounts | null> {
    try {
      const [row] = await withTimeout<Array<{ undispatched: number; in_flight: number; unhandled: number }>>(
        this.dataSource.query(
          `SELECT
             (SELECT count(*) FROM outbox WHERE dispatched_at IS NULL AND completed_at IS NULL AND failed_at IS NULL)::int AS undispatched,
             (SELECT count(*) FROM outbox WHERE dispatched_at IS NOT NULL AND completed_at IS NULL AND failed_at IS NULL)::int AS in_flight,
             (SELECT count(*) FROM outbox WHERE dispatched_at IS NULL AND completed_at IS NULL AND failed_at IS NULL
                AND unhandled_at IS NOT NULL)::int AS unhandled`,
        ),
        PROBE_TIMEOUT_MS,
        'Postgres probe',
      );
      return { pending: row.undispatched + row.in_flight, unhandled: row.unhandled };
    } catch {
      return null;
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
