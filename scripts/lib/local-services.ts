import { join, resolve } from 'node:path';
import { hasAdminAccount } from '../admin-create';
import { migrate } from '../migrate';
import { seedDemoTestimonials } from '../seed-demo';
import { withPaymentProvider } from './app-processes';
import { claimInstance } from './instance';
import type { Lifecycle } from './lifecycle';
import { localSecret } from './local-secret';
import { step } from './log';
import { startEmbeddedPostgres } from './postgres';
import { startProcess } from './processes';
import { startRedis } from './redis';

export const root = resolve(__dirname, '..', '..', '..');

export interface LocalServices {
  /** The environment the API and worker run with (DATABASE_URL, REDIS_URL, SMTP_URL, PORT, …). */
  env: NodeJS.ProcessEnv;
  port: number;
  databaseUrl: string;
  redisUrl: string;
  /** The lines of the "is running" banner about the data services and the mail inbox. */
  bannerLines: string[];
}

/**
 * What `npm start` and `npm run dev` share: the instance record, Postgres and Redis (embedded
 * unless DATABASE_URL / REDIS_URL point elsewhere), migrations, the demo testimonials and a local
 * mail inbox unless SMTP_URL is set. Each piece is owned by `life` from the moment it exists.
 * `extraPorts` are the command's own ports, claimed with the others.
 */
export async function startLocalServices(
  life: Lifecycle,
  opts: { nodeEnv: string; extraPorts?: Record<string, number> },
): Promise<LocalServices> {
  const dataDir = resolve(process.env.DATA_DIR ?? join(root, '.data'));
  const port = Number(process.env.PORT ?? 3000);
  const mailWebPort = Number(process.env.MAIL_WEB_PORT ?? 1080);
  const mailSmtpPort = Number(process.env.MAIL_SMTP_PORT ?? 1025);
  const pgPort = Number(process.env.EMBEDDED_PG_PORT ?? 54320);
  const redisPort = Number(process.env.LOCAL_REDIS_PORT ?? 6390);
  const ports: Record<string, number> = { PORT: port, ...opts.extraPorts };
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
    NODE_ENV: process.env.NODE_ENV ?? opts.nodeEnv,
    PORT: String(port),
    PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    STATIC_DIR: process.env.STATIC_DIR ?? join(root, 'frontend', 'dist'),
    SMTP_URL: process.env.SMTP_URL ?? `smtp://127.0.0.1:${mailSmtpPort}`,
    // Production mode requires a real key; this machine's is made once and kept with its data.
    INVITATION_TOKEN_KEY: process.env.INVITATION_TOKEN_KEY || localSecret(join(dataDir, 'invitation-token.key')),
    // So does a sandbox under production mode (`npm start`): its own signing secret, kept likewise.
    SANDBOX_WEBHOOK_SECRET: process.env.SANDBOX_WEBHOOK_SECRET || `whsec_${localSecret(join(dataDir, 'sandbox-webhook.secret'), 24)}`,
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

  const adminHint = (await hasAdminAccount(databaseUrl))
    ? []
    : ['  Admin           none yet: npm run admin:create -- --email you@example.com'];
  const bannerLines = [
    process.env.SMTP_URL ? `  Mail (SMTP)     ${process.env.SMTP_URL}` : `  Mail inbox      http://localhost:${mailWebPort}`,
    `  Postgres        ${databaseUrl.replace(/:[^:@/]+@/, ':***@')}`,
    `  Redis           ${redisUrl}`,
    ...adminHint,
  ];
  return { env, port, databaseUrl, redisUrl, bannerLines };
}
