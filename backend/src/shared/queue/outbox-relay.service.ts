import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { JOB_QUEUE, JobItem, JobName } from '../contracts/jobs';
import { withTimeout } from '../with-timeout';
import { JobProducer } from './job-producer';

/** A stuck Redis call must not hold the claimed rows' transaction (or shutdown) for long. */
const ENQUEUE_TIMEOUT_MS = 5000;

interface ClaimedRow {
  id: string;
  job_name: string;
  payload: JobItem['data'];
}

/**
 * Moves outbox rows to BullMQ, polling every OUTBOX_POLL_MS (backing off while Redis is away).
 * Rows are claimed with FOR UPDATE SKIP LOCKED so several workers can relay side by side; a row
 * is marked dispatched only after Redis accepted it, and a dispatched row whose job never
 * reported done is offered again (Redis may have lost it).
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private failures = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly producer: JobProducer,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One pass over everything due; resolves with how many jobs were handed to BullMQ. */
  private async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await this.relayBatch();
      total += count;
      if (count < this.config.OUTBOX_BATCH_SIZE) return total;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), delayMs);
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.timer = null;
    this.running = this.drain().then(
      () => {
        if (this.failures > 0) this.logger.log('Outbox relay reaches Redis again');
        this.failures = 0;
      },
      (err: Error) => {
        this.failures += 1;
        if (this.failures === 1 || this.failures % 20 === 0) {
          this.logger.warn(`Outbox relay paused, will retry: ${err.message}`);
        }
      },
    );
    await this.running;
    this.running = null;
    const backoff = Math.min(this.config.OUTBOX_POLL_MS * 2 ** this.failures, 5000);
    this.schedule(backoff);
  }

  private async relayBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows: ClaimedRow[] = await manager.query(
        `SELECT id, job_name, payload FROM outbox
          WHERE completed_at IS NULL AND failed_at IS NULL
            AND (dispatched_at IS NULL OR dispatched_at < now() - make_interval(secs => $1::double precision / 1000))
          ORDER BY created_at
          LIMIT $2
          FOR UPDATE SKIP LOCKED`,
        [this.config.OUTBOX_REDISPATCH_AFTER_MS, this.config.OUTBOX_BATCH_SIZE],
      );
      if (rows.length === 0) return 0;
      const known = rows.filter((row) => row.job_name in JOB_QUEUE);
      const unknown = rows.filter((row) => !(row.job_name in JOB_QUEUE));
      if (unknown.length > 0) {
        // A job name no worker knows would be offered forever; park it where operators look.
        this.logger.error(`Outbox rows with unknown job names parked as failed: ${unknown.map((r) => r.job_name).join(', ')}`);
        await manager.query(
          `UPDATE outbox SET failed_at = now(), last_error = 'unknown job name' WHERE id = ANY($1::uuid[])`,
          [unknown.map((row) => row.id)],
        );
      }
      // If Redis accepts the jobs after the timeout, the rows stay undispatched and are offered
      // again later under the same jobIds, which BullMQ ignores while the jobs exist.
      await withTimeout(
        this.producer.enqueue(known.map((row) => ({ jobId: row.id, job: { name: row.job_name as JobName, data: row.payload } as JobItem }))),
        ENQUEUE_TIMEOUT_MS,
        'Adding jobs to Redis',
      );
      await manager.query(
        `UPDATE outbox SET dispatched_at = now(), dispatch_count = dispatch_count + 1 WHERE id = ANY($1::uuid[])`,
        [known.map((row) => row.id)],
      );
      return rows.length;
    });
  }
}
