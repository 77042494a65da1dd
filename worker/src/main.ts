import 'reflect-metadata';
// First: .env is read before any module that reads a setting as it loads (the site folder's SITE_DIR).
import '@core/config/env-file.preload';
import { NestFactory } from '@nestjs/core';
import { setPriority } from 'node:os';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadProcessConfig } from '@core/config/app-config';
import { QueueConfig } from '@core/config/config-sections';
import { exitCleanlyOnSignals } from '@core/runtime/graceful-shutdown';
import { WorkerModule } from './worker.module';

/**
 * A NestJS application context without HTTP: it only consumes queues. Creating it fails (and the
 * process exits 1) when a contract job has no handler or more than one.
 */
/**
 * A Redis command of the producer's fail-fast connection (the outbox relay's queues) may be
 * rejected while Redis is away with no caller left to catch it, inside BullMQ; that must not end
 * the worker: the outbox offers the work again once Redis is back. Any other unhandled rejection
 * is thrown on, ending the process as Node does by default.
 */
function survivesRedisOutages(): void {
  process.on('unhandledRejection', (reason: unknown) => {
    if (reason instanceof Error && reason.name === 'MaxRetriesPerRequestError') {
      console.warn(`Worker: a Redis command failed while Redis was away (${reason.message}); the outbox offers its work again`);
      return;
    }
    throw reason;
  });
}

async function main(): Promise<void> {
  // Every setting is checked before the modules open Postgres and Redis: a bad one ends the boot at once, named.
  loadProcessConfig();
  survivesRedisOutages();
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  const { WORKER_NICENESS } = app.get(QueueConfig);
  try {
    setPriority(WORKER_NICENESS);
  } catch (err) {
    app.get(Logger).warn(`Could not set worker niceness to ${WORKER_NICENESS}: ${(err as Error).message}`);
  }
  await app.init();
  // Closing the BullMQ workers waits for the jobs in flight; one cut short by the time limit is
  // taken over by another worker once its lock expires, and the ledger keeps it from acting twice.
  exitCleanlyOnSignals(app, 'finishing the jobs in flight');
  app.get(Logger).log('Worker started');
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
