import { join } from 'node:path';
import { loadEnvFile } from '@core/config/env-file';
import { Lifecycle } from './lib/lifecycle';
import { root, startLocalServices } from './lib/local-services';
import { step } from './lib/log';
import { startProcess, waitForHttp } from './lib/processes';

/**
 * `npm start`: the whole product on one machine. Postgres and Redis are embedded unless
 * DATABASE_URL / REDIS_URL point elsewhere; then migrations, API, worker and a mail inbox.
 * A stop (Ctrl-C, SIGTERM, SIGHUP, or bootstrap vanishing) undoes it all in reverse order.
 */
async function main(life: Lifecycle): Promise<'stay'> {
  // .env (or ENV_FILE) as if exported, where nothing was; the API and worker inherit the result.
  const envFile = loadEnvFile();
  if (envFile) step(`Read settings from ${envFile} (variables set in the environment win)`);
  const { env, port, bannerLines } = await startLocalServices(life, { nodeEnv: 'production' });

  const worker = startProcess('Worker', process.execPath, [join(root, 'dist', 'worker', 'src', 'main.js')], env);
  life.own('Worker', () => worker.stop());
  const api = startProcess('API', process.execPath, [join(root, 'dist', 'backend', 'src', 'main.js')], env);
  life.own('API', () => api.stop());
  for (const p of [worker, api]) {
    p.child.once('exit', (code) => {
      if (!life.isExiting) void life.exit(1, `${p.name} exited unexpectedly (code ${code})`);
    });
  }
  await waitForHttp(`http://127.0.0.1:${port}/api/health/live`, api.child);

  const site = `http://localhost:${port}`;
  process.stdout.write(
    [
      '',
      '  The funnel is running',
      `  Site            ${site}`,
      `  API docs        ${site}/api/docs (signed-in admins: npm start runs in production mode)`,
      `  Health          ${site}/api/health`,
      ...bannerLines,
      '',
      '  Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  return 'stay';
}

// A requested stop of `npm start` is a normal end, not a failure.
const life = new Lifecycle({ signalExitCode: () => 0 });
life.run(() => main(life));
