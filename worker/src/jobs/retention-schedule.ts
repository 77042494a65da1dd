import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { JOBS, QUEUES } from '@contracts/jobs';
import { JobProducer } from '@core/queue/job-producer';

/** The one job scheduler of the retention pass: every worker upserts it under this id, so there is one however many run. */
export const RETENTION_SCHEDULER_ID = 'data-retention-daily';

/** Every day at 03:00 UTC. */
const RETENTION_SCHEDULE = { pattern: '0 3 * * *', tz: 'UTC' } as const;

/** While Redis is away at start, the scheduler is upserted again after this long. */
const RETRY_MS = 60_000;

/**
 * Puts the daily `data-retention` job on BullMQ's job scheduler. BullMQ keeps one scheduler per
 * id and adds one job per day under an id derived from the scheduler and the day's time, so with
 * two or more workers the pass still runs once a day, on whichever worker takes the job.
 */
@Injectable()
export class RetentionSchedule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RetentionSchedule.name);
  private timer: NodeJS.Timeout | null = null;
  private pending: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly producer: JobProducer) {}

  onApplicationBootstrap(): void {
    // Not awaited: a worker starts (and drains its queues) while Redis is still on its way.
    this.pending = this.ensure();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.pending;
  }

  /** Creates or updates the scheduler; resolves either way, retrying later if Redis refused. */
  async ensure(): Promise<void> {
    try {
      await this.producer.queue(QUEUES.maintenance).upsertJobScheduler(RETENTION_SCHEDULER_ID, RETENTION_SCHEDULE, {
        name: JOBS.dataRetention,
        data: {},
        opts: {
          attempts: 3,
          backoff: { type: 'exponential', delay: 60_000 },
          removeOnComplete: { count: 30 },
          removeOnFail: { count: 30 },
        },
      });
    } catch (err) {
      if (this.stopped) return;
      this.logger.warn(`Could not schedule the daily retention job, retrying in ${RETRY_MS / 1000} s: ${(err as Error).message}`);
      this.timer = setTimeout(() => {
        this.pending = this.ensure();
      }, RETRY_MS);
      this.timer.unref();
    }
  }
}
