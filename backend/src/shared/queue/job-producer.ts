import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { JOB_QUEUE, JobItem, QUEUES, QueueName } from '../contracts/jobs';

export interface DispatchableJob {
  /** Deterministic id (the outbox row id): BullMQ ignores a second add while the job exists. */
  jobId: string;
  job: JobItem;
}

/** The typed way to put work on BullMQ; everything else goes through the outbox. */
@Injectable()
export class JobProducer implements OnModuleInit {
  private readonly logger = new Logger(JobProducer.name);
  private readonly queues = new Map<QueueName, Queue>();
  private lastErrorLog = 0;

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    for (const name of Object.values(QUEUES)) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
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
          batch.map(({ jobId, job }) => ({ name: job.name, data: job.data, opts: { jobId } })),
        ),
      ),
    );
  }
}
