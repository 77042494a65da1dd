import { Processor, WorkerHost } from '@nestjs/bullmq';
import { OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { QUEUES } from '@contracts/jobs';
import { AppConfig } from '../../../backend/src/config/app-config';
import { JobRunner } from './job-runner';

/** Consumes the invitations queue (invitation e-mails); handlers are chosen by `@OnJob`. */
@Processor(QUEUES.invitations)
export class InvitationsProcessor extends WorkerHost implements OnApplicationBootstrap {
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
