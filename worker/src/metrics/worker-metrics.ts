import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { registerPoolGauge } from '@core/database/pool-metrics';

/** What became of one run of a job: done, failed and retried later, or given up. */
export type JobRunOutcome = 'done' | 'retrying' | 'gave_up';

/** What a third-party call through the ledger answered: done, already done (duplicate), refused for good, or an error retried later. */
export type ProviderCallOutcome = 'done' | 'duplicate' | 'rejected' | 'error';

/**
 * The worker's own Prometheus registry, served by WorkerMetricsServer: job runs by job name and
 * outcome with their durations, third-party calls through the side-effect ledger by kind and
 * outcome with their latency, ledger effects replayed instead of called, and the Postgres pool.
 * Labels are job names and side-effect kinds only, never ids or personal data.
 */
@Injectable()
export class WorkerMetrics {
  readonly registry = new Registry();
  private readonly jobs: Counter<'job' | 'outcome'>;
  private readonly jobSeconds: Histogram<'job'>;
  private readonly calls: Counter<'kind' | 'outcome'>;
  private readonly callSeconds: Histogram<'kind'>;
  private readonly replays: Counter<'kind'>;

  constructor(dataSource: DataSource) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.jobs = new Counter({
      name: 'funnel_worker_job_runs_total',
      help: 'Job runs in this worker by job name and outcome (done, retrying: failed and retried later, gave_up)',
      labelNames: ['job', 'outcome'],
      registers,
    });
    this.jobSeconds = new Histogram({
      name: 'funnel_worker_job_duration_seconds',
      help: 'Time a job run took in this worker, by job name',
      labelNames: ['job'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.calls = new Counter({
      name: 'funnel_provider_calls_total',
      help: 'Third-party calls made through the side-effect ledger, by side-effect kind and outcome',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.callSeconds = new Histogram({
      name: 'funnel_provider_call_duration_seconds',
      help: 'Latency of third-party calls made through the side-effect ledger, by side-effect kind',
      labelNames: ['kind'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.replays = new Counter({
      name: 'funnel_side_effects_replayed_total',
      help: 'Side effects found finished in the ledger, so not called again, by kind',
      labelNames: ['kind'],
      registers,
    });
    registerPoolGauge(this.registry, dataSource);
  }

  jobRun(job: string, outcome: JobRunOutcome, seconds: number): void {
    this.jobs.inc({ job, outcome });
    this.jobSeconds.observe({ job }, seconds);
  }

  providerCall(kind: string, outcome: ProviderCallOutcome, seconds: number): void {
    this.calls.inc({ kind, outcome });
    this.callSeconds.observe({ kind }, seconds);
  }

  replayed(kind: string): void {
    this.replays.inc({ kind });
  }
}
