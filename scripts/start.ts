import { join, resolve } from 'node:path';
import { loadEnvFile } from '@core/config/env-file';
import { hasAdminAccount } from './admin-create';
import { claimInstance } from './lib/instance';
import { localSecret } from './lib/local-secret';
import { Lifecycle } from './lib/lifecycle';
import { step } from './lib/log';
import { migrate } from './migrate';
import { seedDemoTestimonials } from './seed-demo';
import { startEmbeddedPostgres } from './lib/postgres';
import { startProcess, waitForHttp } from './lib/processes';
import { withPaymentProvider } from './lib/app-processes';
import { startRedis } from './lib/redis';

const root = resolve(__dirname, '..', '..');

/**
 * `npm start`: the whole product on one machine. Postgres and Redis are embedded unless
 * DATABASE_URL / REDIS_URL point elsewhere; then migrations, API, worker and a mail inbox.
 * A stop (Ctrl-C, SIGTERM, SIGHUP, or bootstrap vanishing) undoes it all in reverse order.
 */
async function main(life: Lifecycle): Promise<'stay'> {
  // .env (or ENV_FILE) as if exported, where nothing was; the API and worker inherit the result.
  const envFile = loadEnvFile();
  if (envFile) step(`Read settings from ${envFile} (variables set in the environment win)`);
  const dataDir = resolve(process.env.DATA_DIR ?? join(root, '.data'));
  const port = Number(process.env.PORT ?? 3000);
  const mailWebPort = Number(process.env.MAIL_WEB_PORT ?? 1080);
  const mailSmtpPort = Number(process.env.MAIL_SMTP_PORT ?? 1025);
  const pgPort = Number(process.env.EMBEDDED_PG_PORT ?? 54320);
  const redisPort = Number(process.env.LOCAL_REDIS_PORT ?? 6390);
  const ports: Record<string, number> = { PORT: port };
  if (!process.env.DATABASE_URL) ports.EMBEDDED_PG_PORT = pgPort;
  if (!process.env.REDIS_URL) ports.LOCAL_REDIS_PORT = redisPort;
  if (!process.env.SMTP_URL) Object.assign(ports, { MAIL_WEB_PORT: mailWebPort, MAIL_SMTP_PORT: mailSmtpPort });
  life.own('Instance record', await claimInstance(dataDir, ports), 'removed');

  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    step(`Starting embedded Postgres (data in ${join(dataDir, 'postgres')})`);
    const pg = await startEmbeddedPostgres({ dir: join(dataDir, 'postgres'), port: pgPort, database: 'clear', persistent: true });
    life.own('Postgres', pg.stop);
    databaseUrl = pg.url;
  }
  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    step(`Starting local redis-server (data in ${join(dataDir, 'redis')}, AOF on, noeviction)`);
    const redis = await startRedis({ port: redisPort, dir: join(dataDir, 'redis'), persistent: true });
    life.own('Redis', redis.stop);
    redisUrl = redis.url;
  }

  step('Applying database migrations');
  const applied = await migrate(databaseUrl);
  step(applied.length ? `Applied: ${applied.join(', ')}` : 'Database schema is up to date');
  if (process.env.SEED_DEMO !== '0' && (await seedDemoTestimonials(databaseUrl))) {
    step('Added three demo testimonials (manage them at /admin/testimonials)');
  }

  const env: NodeJS.ProcessEnv = withPaymentProvider({
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? 'production',
    PORT: String(port),
    PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    STATIC_DIR: process.env.STATIC_DIR ?? join(root, 'frontend', 'dist'),
    SMTP_URL: process.env.SMTP_URL ?? `smtp://127.0.0.1:${mailSmtpPort}`,
    // Production mode requires a real key; this machine's is made once and kept with its data.
    INVITATION_TOKEN_KEY: process.env.INVITATION_TOKEN_KEY || localSecret(join(dataDir, 'invitation-token.key')),
  });

  if (!process.env.SMTP_URL) {
    const maildev = startProcess(
      'Mail inbox',
      process.execPath,
      [
        require.resolve('maildev/bin/maildev'),
        ...['--ip', '127.0.0.1', '--smtp', String(mailSmtpPort), '--web', String(mailWebPort), '--silent'],
        // Kept with the other data (and across restarts) rather than a temp folder per run.
        ...['--mail-directory', join(dataDir, 'mail')],
      ],
      env,
      true,
    );
    life.own('Mail inbox', () => maildev.stop());
  }

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
  const adminHint = (await hasAdminAccount(databaseUrl))
    ? []
    : ['  Admin           none yet: npm run admin:create -- --email you@example.com'];

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
      ...adminHint,
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
