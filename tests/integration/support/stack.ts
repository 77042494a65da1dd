import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Redis from 'ioredis';
import { Logger } from 'nestjs-pino';
import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { createApp } from '../../../backend/src/app.factory';
import { RATE_LIMIT_KEY_PREFIX } from '../../../backend/src/common/shared-windows';
import { WorkerModule } from '../../../worker/src/worker.module';
import { withPaymentProvider } from '../../../scripts/lib/app-processes';
import { JOB_QUEUE, JOBS } from '@contracts/jobs';
import { JobProducer } from '@core/queue/job-producer';

export interface Stack {
  api: NestFastifyApplication | null;
  /** Where the API listens (a real socket, so concurrent requests behave as in production). */
  url: string;
  worker: INestApplicationContext | null;
  db: DataSource;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  stop(): Promise<void>;
}

/** Environment every integration stack starts from; each test file overrides what it exercises. */
export const baseEnv = (): Record<string, string> => ({
  NODE_ENV: 'test',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  DATABASE_URL: required('DATABASE_URL'),
  REDIS_URL: required('REDIS_URL'),
  STATIC_DIR: '/nonexistent',
  RATE_LIMIT_WRITES: '100000',
  OUTBOX_POLL_MS: '50',
  JOB_BACKOFF_MS: '100',
  // A job that keeps failing gives up within about two seconds, so a test can see it end.
  JOB_RETRY_HORIZON_S: '2',
  AFFILIATE_API_KEY: '',
  PAYMENT_PROVIDER: 'sandbox',
  // The reconciler would otherwise pick up orders other spec files left behind, mid-test;
  // reconciler.spec.ts runs its passes itself.
  RECONCILE_INTERVAL_S: '86400',
  // Each new lead would owe a reminder an hour later, an outbox row open past every spec's end;
  // abandoned-checkout.spec.ts turns reminders on with a short delay.
  ABANDONED_CHECKOUT_DELAY_S: '0',
  // Here the API shares its event loop with the worker and jest itself (module loading, fakes):
  // stalls no API process would see. load-shedding.spec.ts sets its own thresholds.
  SHED_EVENT_LOOP_DELAY_MS: '10000',
  SHED_MONEY_EVENT_LOOP_DELAY_MS: '10000',
});

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run integration tests through "npm test"`);
  return value;
}

/**
 * The real API (Fastify, validation, outbox relay) and the real worker (BullMQ processors) in
 * this process, against the real Postgres and Redis of the test run.
 */
export async function startStack(env: Record<string, string>, opts: { worker?: boolean } = {}): Promise<Stack> {
  // PUBLIC_URL is the API's own address unless a test sets it: the worker delivers sandbox webhooks there.
  const port = await freePort();
  // The provider is named for every stack from its own env: the sandbox unless it is given Stripe's key.
  Object.assign(process.env, baseEnv(), { PUBLIC_URL: `http://127.0.0.1:${port}` }, withPaymentProvider(env));
  await clearRateLimits(required('REDIS_URL'));
  const api = await createApp();
  // A spec that ran without a worker may have left jobs owed, and a worker's unfinished jobs may
  // wait in Redis: this stack's worker must not deliver them to this spec's fakes. (Nothing of this
  // spec exists yet; a spec that starts its worker later owes its backlog on purpose.)
  if (opts.worker !== false) {
    await api.get(DataSource).query('TRUNCATE outbox');
    await flushQueues(required('REDIS_URL'));
  }
  await api.listen(port, '127.0.0.1');
  const stack: Stack = {
    api,
    url: await api.getUrl(),
    worker: null,
    db: api.get(DataSource),
    async startWorker() {
      const worker = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
      worker.useLogger(worker.get(Logger));
      worker.enableShutdownHooks();
      await worker.init();
      stack.worker = worker;
    },
    async stopWorker() {
      await stack.worker?.close();
      stack.worker = null;
    },
    async stop() {
      await stack.stopWorker();
      await stack.api?.close();
      stack.api = null;
    },
  };
  if (opts.worker !== false) await stack.startWorker();
  return stack;
}

/** Starts every rate limit's window afresh, for a test that counts attempts up to a limit. */
export const resetRateLimits = (): Promise<void> => clearRateLimits(required('REDIS_URL'));

/** Empties the test run's Redis, so jobs a previous spec file left there cannot run in this one. */
export async function flushRedis(): Promise<void> {
  const redis = new Redis(required('REDIS_URL'));
  await redis.flushdb();
  await redis.quit();
}

/** Removes every BullMQ key (jobs, schedulers, events) from a Redis, leaving the rate-limit counts to clearRateLimits. */
async function flushQueues(url: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    for await (const batch of redis.scanStream({ match: 'bull:*', count: 1000 })) {
      if ((batch as string[]).length) await redis.del(...(batch as string[]));
    }
  } catch {
    // A test that starts its stack with Redis down has no jobs to remove.
  } finally {
    redis.disconnect();
  }
}

/**
 * Limits are counted in Redis, which every stack of the run shares: each stack starts with fresh
 * allowances, as its own deployment would, whatever earlier files sent from 127.0.0.1.
 */
async function clearRateLimits(url: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${RATE_LIMIT_KEY_PREFIX}*`, count: 1000 })) keys.push(...(batch as string[]));
    if (keys.length) await redis.del(...keys);
  } catch {
    // A test that starts its stack with Redis down has no counts to clear.
  } finally {
    redis.disconnect();
  }
}

/**
 * Waits (bounded) until the worker has finished every owed job, so a job the previous test did
 * not wait for cannot deliver into the next test's fakes after they were reset.
 */
export async function settleOutbox(db: DataSource, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await owedJobs(db)) === 0) return;
    await sleep(50);
  }
}

/** Outbox rows whose job has not ended yet (neither done nor failed for good). */
async function owedJobs(db: DataSource): Promise<number> {
  const [{ n }]: Array<{ n: number }> = await db.query(
    `SELECT count(*)::int AS n FROM outbox WHERE completed_at IS NULL AND failed_at IS NULL`,
  );
  return n;
}

/**
 * Waits until every owed job has ended (done, or failed for good): a job that finishes writes
 * the jobs it owes next in the same transaction, so nothing more is on its way to a fake.
 */
export async function outboxDrained(db: DataSource, timeoutMs = 20_000): Promise<void> {
  await waitFor(async () => (await owedJobs(db)) === 0, 'every owed job to finish', timeoutMs);
}

/**
 * Hands a lead's affiliate-signup job to BullMQ again under a new job id (as after Redis lost a
 * completed job) and waits until that job has run, so a test can then count what it sent.
 */
export async function redeliverSignup(stack: Stack, leadId: string): Promise<void> {
  const producer = stack.api!.get(JobProducer);
  const jobId = `manual-redelivery-${leadId}`;
  await producer.enqueue([{ jobId, job: { name: JOBS.affiliateSignup, data: { leadId } } }]);
  const queue = producer.queue(JOB_QUEUE[JOBS.affiliateSignup]);
  await waitFor(async () => (await queue.getJob(jobId))?.finishedOn, 'the re-delivered job to finish');
  const job = await queue.getJob(jobId);
  if (!(await job!.isCompleted())) throw new Error(`The re-delivered job failed: ${job!.failedReason}`);
}

/** Empties the lead tables; a worker still finishing the previous test's job may hold locks. */
export async function resetData(db: DataSource): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      // A worker may still be applying the previous test's events: a transaction holding an
      // order's row lock while it reads the sandbox on another connection. Queued behind it, the
      // TRUNCATE would block that read and both would wait forever (Postgres cannot see the wait
      // in the client), so it gives up after a while and tries again once the worker is through.
      await db.transaction(async (manager) => {
        await manager.query(`SET LOCAL lock_timeout = '2s'`);
        await manager.query('TRUNCATE leads, lead_submissions, outbox, side_effects CASCADE');
      });
      return;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if ((code !== '40P01' && code !== '55P03') || attempt === 10) throw err;
      await sleep(100 * attempt);
    }
  }
}

export async function waitFor<T>(probe: () => Promise<T> | T, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T;
  do {
    last = await probe();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 50));
  } while (Date.now() < deadline);
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
}

/**
 * Distinct client addresses in 10.<subnet>.0.0/16 for `X-Forwarded-For`, one per call, so a
 * spec's many checkouts stay under the per-client limits; each spec takes its own subnet.
 */
export function clientAddresses(subnet: number): () => string {
  let n = 0;
  return () => {
    n += 1;
    return `10.${subnet}.${Math.floor(n / 250)}.${n % 250}`;
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
