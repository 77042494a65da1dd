import 'reflect-metadata';
// First: .env is read before any module that reads a setting as it loads (the site folder's SITE_DIR).
import '@core/config/env-file.preload';
import { ConfigError } from '@core/config/app-config';
import { createApp } from './app.factory';
import { ServerConfig } from '@core/config/config-sections';
import { exitCleanlyOnSignals } from '@core/runtime/graceful-shutdown';

async function main(): Promise<void> {
  const app = await createApp();
  const config = app.get(ServerConfig);
  await app.listen(config.PORT, config.HOST);
  // Fastify answers 503 to new requests on connections still open while the taken ones finish.
  exitCleanlyOnSignals(app, 'finishing the requests in flight');
}

main().catch((err: unknown) => {
  // Config errors are already a readable list of variables; anything else keeps its stack.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
