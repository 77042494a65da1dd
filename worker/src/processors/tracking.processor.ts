import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '../../../backend/src/config/app-config';
import { JOBS, JobName, QUEUES } from '../../../backend/src/shared/contracts/jobs';
import { JobLedger } from '../services/job-ledger.service';
import { LeadAttributionService } from '../services/lead-attribution.service';
import { JobHandlers, runJob } from './job-runner';

@Processor(QUEUES.tracking)
export class TrackingProcessor extends WorkerHost implements OnApplicationBootstrap {
  static readonly queue = QUEUES.tracking;
  static readonly jobs: JobName[] = [JOBS.leadAttribution];
  private readonly logger = new Logger(TrackingProcessor.name);
  private readonly handlers: JobHandlers;

  constructor(
    leadAttribution: LeadAttributionService,
    private readonly ledger: JobLedger,
    private readonly config: AppConfig,
  ) {
    super();
    this.handlers = { [JOBS.leadAttribution]: (data: never) => leadAttribution.attribute(data) };
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.WORKER_CONCURRENCY;
  }

  process(job: Job): Promise<unknown> {
    return runJob(job, this.handlers, this.ledger, this.logger);
  }
}
