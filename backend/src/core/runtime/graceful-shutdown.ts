import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { ServerConfig } from '@core/config/config-sections';

/**
 * How long a SIGTERM/SIGINT shutdown may take before the process gives up on it and exits 1:
 * one second less than SHUTDOWN_TIMEOUT_S, the orchestrator's own stop timeout, so the process
 * says why it stops waiting and exits before it would be killed.
 */
export function shutdownBudgetMs(config: Pick<ServerConfig, 'SHUTDOWN_TIMEOUT_S'>): number {
  return (config.SHUTDOWN_TIMEOUT_S - 1) * 1000;
}

/**
 * On SIGTERM or SIGINT: close the application (the API stops listening and finishes the requests
 * it has taken; the worker lets its in-flight jobs finish), which closes Postgres and Redis, then
 * exit 0, so an orchestrator's routine stop is a clean exit. Nest's own shutdown hooks would
 * re-raise the signal instead (the process then dies "by signal") and set no time limit.
 */
export function exitCleanlyOnSignals(app: INestApplicationContext, what: string): void {
  const budgetMs = shutdownBudgetMs(app.get(ServerConfig));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      const logger = app.get(Logger);
      logger.log(`${signal} received: ${what}`);
      setTimeout(() => {
        logger.error(`Shutdown did not finish within ${budgetMs / 1000} s (SHUTDOWN_TIMEOUT_S less 1 s); exiting`);
        process.exit(1);
      }, budgetMs).unref();
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
