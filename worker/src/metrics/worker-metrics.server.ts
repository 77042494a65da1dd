import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { createServer, Server } from 'node:http';
import { Registry } from 'prom-client';
import { OpsConfig } from '@core/config/config-sections';
import { bearerMatches } from '@core/runtime/bearer';
import { PaymentMetrics } from '@core/metrics/payment-metrics';
import { WorkerMetrics } from './worker-metrics';

/**
 * GET /metrics of the worker on WORKER_METRICS_PORT (0: not served), for the same scraper as the
 * API's /api/metrics and behind the same METRICS_TOKEN bearer token: without the token set, it
 * answers 401 to everyone rather than expose the figures.
 */
@Injectable()
export class WorkerMetricsServer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(WorkerMetricsServer.name);
  private server: Server | null = null;

  constructor(
    private readonly metrics: WorkerMetrics,
    private readonly config: OpsConfig,
    private readonly payments: PaymentMetrics,
  ) {}

  async onModuleInit(): Promise<void> {
    const port = this.config.WORKER_METRICS_PORT;
    if (!port) return;
    const token = this.config.METRICS_TOKEN;
    this.server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url !== '/metrics') return void res.writeHead(404).end();
      if (!bearerMatches(req.headers.authorization, token))
        return void res.writeHead(401, { 'content-type': 'text/plain' }).end('Send the metrics token as a bearer token.\n');
      Registry.merge([this.metrics.registry, this.payments.registry])
        .metrics()
        .then((text) => res.writeHead(200, { 'content-type': Registry.PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' }).end(text))
        .catch(() => res.writeHead(500).end());
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, this.config.WORKER_METRICS_HOST, resolve);
    });
    this.logger.log({ port, host: this.config.WORKER_METRICS_HOST }, 'Worker metrics served at /metrics');
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
