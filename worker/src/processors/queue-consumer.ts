import { WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { QueueConfig } from '@core/config/config-sections';
import { readyBeforeClose, workerConnected } from '@core/queue/bullmq-ready';
import { cappedExponentialBackoff } from '@core/queue/job-options';
import { JobRunner } from './job-runner';

/**
 * Every processor's BullMQ worker options. A live worker renews its job locks every
 * lockDuration / 2; when a worker dies (SIGKILL, OOM, a lost host) its active jobs are taken
 * over once their lock has expired and a stall check has run, so these two bound how long a
 * crash holds jobs back: 15 s here instead of BullMQ's default of up to a minute. Jobs are
 * idempotent through the ledger, so a job taken over from a worker that was only slow is safe.
 */
export const CONSUMER_OPTIONS = {
  lockDuration: 10_000,
  stalledInterval: 5_000,
  // BullMQ fails a job that stalled more than this many times without running it, so the runner
  // never stamps its outbox row and the relay's redispatch is ignored while the failed job exists:
  // two crashes with the job in flight (a crash loop, two deploys cut short) would lose it
  // silently. A stall is one more attempt for the ledger to resume; the runner gives up on a job
  // that keeps taking its workers down once its horizon has passed, visibly.
  maxStalledCount: 1_000_000,
  // Computes the retry delays of the jobs' `capped-exponential` backoff (core/queue/job-options.ts).
  settings: { backoffStrategy: cappedExponentialBackoff },
};

/**
 * What every queue's processor does: consume at its concurrency (WORKER_CONCURRENCY unless the
 * queue says otherwise) and hand each job to the runner, which picks the `@OnJob` handler. A
 * processor is this class plus `@Processor(queue)`.
 */
@Injectable()
export abstract class QueueConsumer extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly runner: JobRunner,
    private readonly config: QueueConfig,
  ) {
    super();
  }

  private readonly logger = new Logger('QueueConsumer');
  private lastErrorLog = 0;

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.concurrency(this.config);
    // BullMQ reports a lost Redis connection as an 'error' event; with no listener Node throws
    // it, which would take the worker down on a Redis restart or while it closes. The worker
    // reconnects by itself: say so at most every 10 s.
    this.worker.on('error', (err) => {
      const now = Date.now();
      if (now - this.lastErrorLog < 10_000) return;
      this.lastErrorLog = now;
      this.logger.warn(`Queue "${this.worker.name}" lost Redis for a moment: ${err.message}`);
    });
  }

  /**
   * Before @nestjs/bullmq closes the worker: its connections finish connecting first
   * (bullmq-ready.ts). If one is still reconnecting 2 s on (Redis is away, or restarted a moment
   * ago), BullMQ's graceful close would wait for it forever: the worker closes without waiting
   * for its jobs in flight instead. Those could not finish without Redis anyway; their locks
   * lapse and another worker takes them over, the ledger keeping any effect from happening twice.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await readyBeforeClose(() => this.worker.waitUntilReady());
    if (await workerConnected(this.worker)) return;
    this.logger.warn(`Queue "${this.worker.name}" cannot reach Redis: closing without waiting for its jobs in flight`);
    await this.worker.close(true);
  }

  protected concurrency(config: QueueConfig): number {
    return config.WORKER_CONCURRENCY;
  }

  process(job: Job, token?: string): Promise<unknown> {
    return this.runner.run(job, token);
  }
}
