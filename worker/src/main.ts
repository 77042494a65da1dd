import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { setPriority } from 'node:os';
import { Logger } from 'nestjs-pino';
import { AppConfig, ConfigError } from '../../backend/src/config/app-config';
import { WorkerModule } from './worker.module';

/**
 * A NestJS application context without HTTP: it only consumes queues. Creating it fails (and the
 * process exits 1) when a contract job has no handler or more than one.
 */
async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  const { WORKER_NICENESS } = app.get(AppConfig);
  try {
    setPriority(WORKER_NICENESS);
  } catch (err) {
    app.get(Logger).warn(`Could not set worker niceness to ${WORKER_NICENESS}: ${(err as Error).message}`);
  }
  // On SIGTERM/SIGINT Nest closes the BullMQ workers, which wait for in-flight jobs to finish.
  app.enableShutdownHooks();
  await app.init();
  app.get(Logger).log('Worker started');
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
