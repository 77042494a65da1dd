import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { ConfigError } from './config/app-config';
import { createApp } from './app.factory';
import { AppConfig } from './config/app-config';

/** Longest a SIGTERM/SIGINT shutdown may take before the process gives up on it and exits 1. */
const SHUTDOWN_BUDGET_MS = 10_000;

async function main(): Promise<void> {
  const app = await createApp();
  const config = app.get(AppConfig);
  await app.listen(config.PORT, config.HOST);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void shutdown(app, signal));
}

/**
 * Stops listening, lets every request already taken finish (Fastify answers 503 to new ones on
 * open connections), then closes Postgres and Redis, and exits 0: an orchestrator's routine stop
 * is a clean exit. Nest's own shutdown hooks would re-raise the signal instead, and set no budget.
 */
async function shutdown(app: NestFastifyApplication, signal: NodeJS.Signals): Promise<void> {
  const logger = app.get(Logger);
  logger.log(`${signal} received: finishing the requests in flight`);
  setTimeout(() => {
    logger.error(`Shutdown did not finish within ${SHUTDOWN_BUDGET_MS / 1000} s; exiting`);
    process.exit(1);
  }, SHUTDOWN_BUDGET_MS).unref();
  try {
    await app.close();
    process.exit(0);
  } catch (err) {
    logger.error({ err: (err as Error).message }, 'Shutdown failed');
    process.exit(1);
  }
}

main().catch((err: unknown) => {
  // Config errors are already a readable list of variables; anything else keeps its stack.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
