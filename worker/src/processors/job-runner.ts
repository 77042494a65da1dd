import { Injectable, Logger, Optional } from '@nestjs/common';
import type { Job } from 'bullmq';
import { DelayedError, UnrecoverableError } from 'bullmq';
import { QueueConfig } from '@core/config/config-sections';
import { isPastHorizon } from '@core/queue/job-options';
import { JobRegistry } from '../jobs/job-registry';
import { redact } from '../jobs/redact';
import { OutboxOutcomeRecorder } from '../ledger/outbox-outcome-recorder';
import { WorkerMetrics } from '../metrics/worker-metrics';
import { isUuid } from '@contracts/ids';

/** Jobs relayed from the outbox carry the row id as jobId; others have no row to stamp. */
const outboxId = (job: Job): string | null => (isUuid(job.id) ? job.id : null);

/** A job this build has no handler for (a newer API's) waits for a worker that has one. */
const UNKNOWN_JOB_DELAY_MS = 30_000;

/**
 * Shared by every processor: run the job's registered handler, stamp the outbox row done, and
 * keep a failing job retrying (capped exponential backoff) until JOB_RETRY_HORIZON_S has passed
 * since it was handed to BullMQ. Only then does it give up: its outbox row is parked as failed
 * with the reason (the relay stops offering it; the admin's list of jobs that gave up shows it)
 * and BullMQ moves it to its failed list. A refusal that retrying cannot change
 * (UnrecoverableError) gives up at once. Log lines carry ids, job names and outcome labels;
 * error messages are redacted before they are logged or stored.
 */
@Injectable()
export class JobRunner {
  private readonly logger = new Logger('JobRunner');
  private readonly horizonMs: number;

  constructor(
    private readonly registry: JobRegistry,
    private readonly ledger: OutboxOutcomeRecorder,
    config: QueueConfig,
    @Optional() private readonly metrics?: WorkerMetrics,
  ) {
    this.horizonMs = config.JOB_RETRY_HORIZON_S * 1000;
  }

  async run(job: Job, token: string | undefined): Promise<unknown> {
    const handler = this.registry.handlerFor(job.name);
    if (!handler) {
      // Not a failure of the job: put it back without using an attempt, for a newer worker.
      this.logger.warn({ jobId: job.id, job: job.name.slice(0, 100) }, 'No handler in this worker; job delayed for one that has it');
      await job.moveToDelayed(Date.now() + UNKNOWN_JOB_DELAY_MS, token);
      throw new DelayedError();
    }
    const attempt = job.attemptsMade + 1;
    if (job.stalledCounter > 0 && isPastHorizon(job.timestamp + (job.opts.delay ?? 0), Date.now(), this.horizonMs)) {
      // Its workers died under it (SIGKILL, out of memory) until its horizon passed: it may be
      // what kills them. It gives up as a failing job does, for the admin to see and retry.
      const message = `The worker running this job stopped ${job.stalledCounter} time(s) before it finished`;
      const rowId = outboxId(job);
      if (rowId) await this.ledger.markFailed(rowId, message);
      this.metrics?.jobRun(job.name, 'gave_up', 0);
      this.logger.warn({ jobId: job.id, job: job.name, attempt, gaveUp: true, err: message }, 'Job failed');
      throw new UnrecoverableError(message);
    }
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const outcome = await handler.run(job.data);
      const rowId = outboxId(job);
      if (rowId) await this.ledger.markCompleted(rowId);
      this.metrics?.jobRun(job.name, 'done', seconds());
      this.logger.log({ jobId: job.id, job: job.name, attempt, outcome: redact(outcome) }, 'Job done');
      return outcome;
    } catch (err) {
      const message = redact((err as Error).message ?? String(err));
      const gaveUp =
        err instanceof UnrecoverableError ||
        attempt >= (job.opts.attempts ?? 1) ||
        // A delayed job's horizon starts when it became due, not when it was added.
        isPastHorizon(job.timestamp + (job.opts.delay ?? 0), Date.now(), this.horizonMs);
      const rowId = outboxId(job);
      if (rowId) await (gaveUp ? this.ledger.markFailed(rowId, message) : this.ledger.noteError(rowId, message));
      this.metrics?.jobRun(job.name, gaveUp ? 'gave_up' : 'retrying', seconds());
      this.logger.warn({ jobId: job.id, job: job.name, attempt, gaveUp, err: message }, 'Job failed');
      // BullMQ would retry while attempts remain: past the horizon it must not.
      throw gaveUp && !(err instanceof UnrecoverableError) ? new UnrecoverableError(message) : err;
    }
  }
}
