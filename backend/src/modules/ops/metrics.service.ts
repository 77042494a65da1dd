import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { OpsConfig } from '@core/config/config-sections';
import { OutboxRepository } from '@core/database/repositories/outbox.repository';
import { JOBS, QUEUES } from '@contracts/jobs';
import { JobProducer } from '@core/queue/job-producer';
import { withTimeout } from '@core/runtime/with-timeout';
import { registerPoolGauge } from '@core/database/pool-metrics';
import { DataSource } from 'typeorm';
import { PaymentMetrics } from '@core/metrics/payment-metrics';
import { LoadShedding } from '../../common/load-shedding/load-shedding.service';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The API's Prometheus registry. Requests are counted as they finish, labelled by route template
 * (never the URL, which may carry personal data). Everything else is read at scrape time, each
 * source under its own time limit, so a slow or missing Postgres or Redis leaves its series out
 * and says so in funnel_metrics_source_up rather than holding up the scrape.
 *
 * The worker is another process (with its own /metrics); the job outcomes of every worker are
 * read here from `outbox_outcome_totals`, which a worker adds to in the statement that stamps a
 * job's outbox row completed_at or failed_at (gave up, after its retry horizon).
 */
@Injectable()
export class MetricsService implements OnModuleInit {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status_class'>;
  private readonly durations: Histogram<'method' | 'route' | 'status_class'>;
  private readonly queueJobs: Gauge<'queue' | 'state'>;
  private readonly outboxPending: Gauge<'queue' | 'state'>;
  private readonly outboxUnhandled: Gauge<'queue'>;
  private readonly outboxLag: Gauge<'queue'>;
  private readonly jobOutcomes: Counter<'job' | 'outcome'>;
  private readonly sourceUp: Gauge<'source'>;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly outboxRows: OutboxRepository,
    private readonly producer: JobProducer,
    private readonly config: OpsConfig,
    dataSource: DataSource,
    private readonly payments: PaymentMetrics,
    private readonly shedding: LoadShedding,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    registerPoolGauge(this.registry, dataSource);
    const httpLabels = ['method', 'route', 'status_class'] as const;
    this.requests = new Counter({
      name: 'funnel_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status class',
      labelNames: httpLabels,
      registers,
    });
    this.durations = new Histogram({
      name: 'funnel_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route template, method and status class',
      labelNames: httpLabels,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.queueJobs = new Gauge({
      name: 'funnel_queue_jobs',
      help: 'Jobs in each BullMQ queue by state',
      labelNames: ['queue', 'state'],
      registers,
    });
    this.outboxPending = new Gauge({
      name: 'funnel_outbox_pending',
      help: 'Outbox rows not yet done: undispatched (waiting for the relay) or in_flight (handed to BullMQ)',
      labelNames: ['queue', 'state'],
      registers,
    });
    this.outboxUnhandled = new Gauge({
      name: 'funnel_outbox_unhandled',
      help: 'Undispatched outbox rows whose job no worker handles',
      labelNames: ['queue'],
      registers,
    });
    this.outboxLag = new Gauge({
      name: 'funnel_outbox_lag_seconds',
      help: 'Age of the oldest undispatched outbox row per queue (0 when none)',
      labelNames: ['queue'],
      registers,
    });
    this.jobOutcomes = new Counter({
      name: 'funnel_jobs_total',
      help: 'Jobs finished by every worker, by job name and outcome (completed, or failed: gave up after its retry horizon; a job retried by an admin that then completes counts in both)',
      labelNames: ['job', 'outcome'],
      registers,
    });
    this.sourceUp = new Gauge({
      name: 'funnel_metrics_source_up',
      help: 'Whether the last scrape could read this source (1) or left its series out (0)',
      labelNames: ['source'],
      registers,
    });
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onResponse', (request, reply, done) => {
      const labels = {
        method: METHODS.has(request.method) ? request.method : 'OTHER',
        route: request.routeOptions.url ?? 'unmatched',
        status_class: `${Math.floor(reply.statusCode / 100)}xx`,
      };
      this.requests.inc(labels);
      this.durations.observe(labels, reply.elapsedTime / 1000);
      done();
    });
  }

  /** The exposition text, after reading queues and outbox (each within METRICS_SOURCE_TIMEOUT_MS). */
  async render(): Promise<string> {
    const [redisUp, postgresUp] = await Promise.all([this.readQueues(), this.readOutbox()]);
    this.sourceUp.set({ source: 'redis' }, redisUp ? 1 : 0);
    this.sourceUp.set({ source: 'postgres' }, postgresUp ? 1 : 0);
    return Registry.merge([this.registry, this.payments.registry, this.shedding.registry]).metrics();
  }

  private async readQueues(): Promise<boolean> {
    try {
      const depths = await withTimeout(
        Promise.all(
          this.producer.allQueues().map(async (queue) => ({ queue: queue.name, counts: await queue.getJobCounts(...QUEUE_STATES) })),
        ),
        this.config.METRICS_SOURCE_TIMEOUT_MS,
        'Queue depth read',
      );
      this.queueJobs.reset();
      for (const { queue, counts } of depths) for (const state of QUEUE_STATES) this.queueJobs.set({ queue, state }, counts[state] ?? 0);
      return true;
    } catch {
      this.queueJobs.reset();
      return false;
    }
  }

  private async readOutbox(): Promise<boolean> {
    const timeoutMs = this.config.METRICS_SOURCE_TIMEOUT_MS;
    try {
      const [outbox, outcomes] = await withTimeout(this.outboxRows.figures(timeoutMs), timeoutMs + 500, 'Outbox read');
      const byQueue = new Map(outbox.map((row) => [row.queue, row]));
      for (const queue of Object.values(QUEUES)) {
        const row = byQueue.get(queue);
        this.outboxPending.set({ queue, state: 'undispatched' }, row?.undispatched ?? 0);
        this.outboxPending.set({ queue, state: 'in_flight' }, row?.in_flight ?? 0);
        this.outboxUnhandled.set({ queue }, row?.unhandled ?? 0);
        this.outboxLag.set({ queue }, row?.lag_seconds ?? 0);
      }
      this.jobOutcomes.reset();
      const byJob = new Map(outcomes.map((row) => [row.job_name, row]));
      for (const job of Object.values(JOBS)) {
        this.jobOutcomes.inc({ job, outcome: 'completed' }, byJob.get(job)?.completed ?? 0);
        this.jobOutcomes.inc({ job, outcome: 'failed' }, byJob.get(job)?.failed ?? 0);
      }
      return true;
    } catch {
      for (const metric of [this.outboxPending, this.outboxUnhandled, this.outboxLag, this.jobOutcomes]) metric.reset();
      return false;
    }
  }
}
