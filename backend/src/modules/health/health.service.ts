import { Injectable } from '@nestjs/common';
import type { HealthResponse } from '@contracts/api-types';
import { OutboxRepository } from '@core/database/repositories/outbox.repository';
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
    private readonly outboxRows: OutboxRepository,
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

  private async outbox(): Promise<OutboxCounts | null> {
    try {
      const row = await withTimeout(this.outboxRows.pendingCounts(), PROBE_TIMEOUT_MS, 'Postgres probe');
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
