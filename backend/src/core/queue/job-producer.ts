import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { QueueConfig, RedisConfig } from '../config/config-sections';
import { JOB_QUEUE, JobItem, QUEUES, QueueName } from '@contracts/jobs';
import { defaultJobOptions } from './job-options';
import { connectionFor } from './redis-options';
import { readyBeforeClose } from './bullmq-ready';
import { valueWithin } from '../runtime/with-timeout';

export interface DispatchableJob {
  /** Deterministic id (the outbox row id): BullMQ ignores a second add while the job exists. */
  jobId: string;
  job: JobItem;
  /** Held back this long (a job owed for later); absent or 0: runs at once. */
  delayMs?: number;
}

const CLOSE_TIMEOUT_MS = 2000;

/**
 * The typed way to put work on BullMQ; everything else goes through the outbox. It owns its
 * queue connections (fail fast while Redis is away) and closes them itself, so shutting down
 * during a Redis outage neither hangs nor throws.
 */
@Injectable()
export class JobProducer implements OnApplicationShutdown {
  private readonly logger = new Logger(JobProducer.name);
  private readonly queues = new Map<QueueName, Queue>();
  private lastErrorLog = 0;

  constructor(redis: RedisConfig, jobs: QueueConfig) {
    for (const name of Object.values(QUEUES)) {
      const queue = new Queue(name, {
        connection: connectionFor('producer', redis),
        defaultJobOptions: defaultJobOptions(jobs),
      });
      // Redis outages are expected and survivable; log them at most every 10 s, not per retry.
      queue.on('error', (err) => {
        const now = Date.now();
        if (now - this.lastErrorLog > 10_000) {
          this.lastErrorLog = now;
          this.logger.warn(`Queue "${name}" cannot reach Redis: ${err.message}`);
        }
      });
      this.queues.set(name, queue);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(
      this.allQueues().map(async (queue) => {
        await readyBeforeClose(() => queue.waitUntilReady());
        if (
          (await valueWithin(
            queue.close().then(() => true),
            CLOSE_TIMEOUT_MS,
          )) === true
        )
          return;
        // QUIT cannot be sent while Redis is away; stop the client's reconnect loop instead
        // (BullMQ's own disconnect() waits for an 'end' event that never comes in that state).
        const client = await valueWithin(queue.backend.client, CLOSE_TIMEOUT_MS);
        void client?.disconnect();
      }),
    );
  }

  queue(name: QueueName): Queue {
    const queue = this.queues.get(name);
    if (!queue) throw new Error(`Queue "${name}" is not registered`);
    return queue;
  }

  allQueues(): Queue[] {
    return [...this.queues.values()];
  }

  async enqueue(items: DispatchableJob[]): Promise<void> {
    const byQueue = new Map<QueueName, DispatchableJob[]>();
    for (const item of items) {
      const name = JOB_QUEUE[item.job.name];
      byQueue.set(name, [...(byQueue.get(name) ?? []), item]);
    }
    await Promise.all(
      [...byQueue].map(([name, batch]) =>
        this.queue(name).addBulk(
          batch.map(({ jobId, job, delayMs }) => ({
            name: job.name,
            data: job.data,
            opts: delayMs ? { jobId, delay: delayMs } : { jobId },
          })),
        ),
      ),
    );
  }
}
