import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { QueueConfig } from '../config/config-sections';
import type { JobItem } from '@contracts/jobs';
import { OutboxRepository, type ClaimedOutboxRow } from '../database/repositories/outbox.repository';
import { withTimeout } from '../runtime/with-timeout';
import { JobProducer } from './job-producer';
import { RELAYED_JOBS } from './relayed-jobs';

/** A stuck Redis call must not hold the claimed rows (or shutdown) for long. */
const ENQUEUE_TIMEOUT_MS = 5000;
/** Longer than an enqueue can take, so a live relay always finishes before its lease ends. */
const LEASE_MS = 30_000;
/** How often rows for unknown jobs are counted and reported; cheap, but not every poll. */
const UNHANDLED_CHECK_MS = 10_000;
const UNHANDLED_LOG_EVERY_MS = 60_000;

/**
 * Moves outbox rows to BullMQ, polling every OUTBOX_POLL_MS (backing off while Redis is away).
 * No transaction is open across the Redis call: a short statement leases the due rows (other
 * relays skip leased rows), the jobs are added under jobId = row id, then the rows are marked
 * dispatched. A dispatched row whose job never reported done is offered again after
 * OUTBOX_REDISPATCH_AFTER_MS (Redis may have lost it). Rows whose job name this build does not
 * know are left alone for a worker that knows them, and reported.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private failures = 0;
  private lastUnhandledCheck = 0;
  private lastUnhandledLog = { at: 0, summary: '' };

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly producer: JobProducer,
    private readonly config: QueueConfig,
    @Inject(RELAYED_JOBS) private readonly jobNames: readonly string[],
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
  async drain(): Promise<number> {
    if (Date.now() - this.lastUnhandledCheck >= UNHANDLED_CHECK_MS) await this.reportUnhandled();
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
    const rows = await this.claim();
    if (rows.length === 0) return 0;
    const ids = rows.map((row) => row.id);
    try {
      // If Redis accepts the jobs after the timeout, the rows are offered again later under the
      // same jobIds, which BullMQ ignores while the jobs exist.
      await withTimeout(
        this.producer.enqueue(
          rows.map((row) => ({
            jobId: row.id,
            job: { name: row.job_name, data: row.payload } as JobItem,
            ...(row.delay_ms > 0 ? { delayMs: Math.ceil(row.delay_ms) } : {}),
          })),
        ),
        ENQUEUE_TIMEOUT_MS,
        'Adding jobs to Redis',
      );
    } catch (err) {
      // Offer the rows again at the next poll rather than when the lease runs out.
      await this.outbox.releaseLease(ids).catch(() => undefined);
      throw err;
    }
    await this.outbox.markDispatched(ids);
    return rows.length;
  }

  /**
   * Leases up to a batch of never-dispatched rows and up to a batch of rows due for redispatch,
   * in one statement. SKIP LOCKED and the lease keep concurrent relays off the same rows.
   */
  private async claim(): Promise<ClaimedOutboxRow[]> {
    const rows = await this.outbox.claimDue(this.jobNames, this.config.OUTBOX_BATCH_SIZE, this.config.OUTBOX_REDISPATCH_AFTER_MS, LEASE_MS);
    return rows.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
  }

  /**
   * Marks undispatched rows whose job this build does not know (health counts them) and says so
   * in the log at most once a minute unless the picture changes: job names and counts only.
   */
  private async reportUnhandled(): Promise<void> {
    this.lastUnhandledCheck = Date.now();
    const counts = await this.outbox.markUnhandled(this.jobNames);
    if (counts.length === 0) return;
    const summary = counts.map((c) => `"${c.job_name.slice(0, 100)}" (${c.n})`).join(', ');
    const now = Date.now();
    if (summary === this.lastUnhandledLog.summary && now - this.lastUnhandledLog.at < UNHANDLED_LOG_EVERY_MS) return;
    this.lastUnhandledLog = { at: now, summary };
    this.logger.warn(`Outbox rows left for a worker that knows their job (this one does not): ${summary}`);
  }
}
