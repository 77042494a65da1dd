import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from 'nestjs-pino';

/** Longest a SIGTERM/SIGINT shutdown may take before the process gives up on it and exits 1. */
export const SHUTDOWN_BUDGET_MS = 10_000;

/**
 * On SIGTERM or SIGINT: close the application (the API stops listening and finishes the requests
 * it has taken; the worker lets its in-flight jobs finish), which closes Postgres and Redis, then
 * exit 0, so an orchestrator's routine stop is a clean exit. Nest's own shutdown hooks would
 * re-raise the signal instead (the process then dies "by signal") and set no time limit.
 */
export function exitCleanlyOnSignals(app: INestApplicationContext, what: string): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      const logger = app.get(Logger);
      logger.log(`${signal} received: ${what}`);
      setTimeout(() => {
        logger.error(`Shutdown did not finish within ${SHUTDOWN_BUDGET_MS / 1000} s; exiting`);
        process.exit(1);
      }, SHUTDOWN_BUDGET_MS).unref();
      app.close().then(
        () => process.exit(0),
        (err: Error) => {
          logger.error({ err: err.message }, 'Shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
