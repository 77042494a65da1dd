import { WorkerHost } from '@nestjs/bullmq';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '../../../backend/src/config/app-config';
import { JobRunner } from './job-runner';

/**
 * What every queue's processor does: consume at WORKER_CONCURRENCY and hand each job to the
 * runner, which picks the `@OnJob` handler. A processor is this class plus `@Processor(queue)`.
 */
@Injectable()
export abstract class QueueConsumer extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly runner: JobRunner,
    private readonly config: AppConfig,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.WORKER_CONCURRENCY;
  }

  process(job: Job, token?: string): Promise<unknown> {
    return this.runner.run(job, token);
  }
}
