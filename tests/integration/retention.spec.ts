import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { JOB_QUEUE, JOBS } from '@contracts/jobs';
import { OutboxRepository } from '@core/database/repositories/outbox.repository';
import { JobProducer } from '@core/queue/job-producer';
import { WorkerModule } from '../../worker/src/worker.module';
import { DataRetentionHandler } from '../../worker/src/handlers/data-retention.handler';
import { RETENTION_SCHEDULER_ID } from '../../worker/src/jobs/retention-schedule';
import { flushRedis, Stack, startStack, waitFor } from './support/stack';

/**
 * The daily retention pass against the real worker: rows are seeded with their timestamps set
 * directly (past the 90-day period, past the 30-day audit address period, or recent), the job
 * runs, and each table holds exactly what must stay. Batches of 2 make every kind take several.
 */
let stack: Stack;

const OLD = `now() - interval '100 days'`;
const AUDIT_OLD = `now() - interval '40 days'`;
const RECENT = `now() - interval '10 days'`;
/** A job name this build does not know: the relay leaves such a row open, as a newer API's. */
const NEWER_JOB = 'from-a-newer-api';

const TABLES = 'payment_events, outbox, outbox_outcome_totals, side_effects, funnel_events, admin_audit_log, orders, leads';

interface Seeded {
  outbox: { oldDone: string; oldFailed: string; recentDone: string; oldOpen: string; oldInFlight: string };
  sideEffects: { oldDone: string; oldFailed: string; oldClaimed: string; recentDone: string; owedDone: string };
  audit: { old: string; pastIpPeriod: string; recent: string };
}

async function insertOutbox(jobName: string, payload: object, columns: Record<string, string>): Promise<string> {
  const names = Object.keys(columns);
  const [{ id }] = await stack.db.query(
    `INSERT INTO outbox (queue, job_name, payload${names.map((n) => `, ${n}`).join('')})
     VALUES ('payments', $1, $2${names.map((n) => `, ${columns[n]}`).join('')}) RETURNING id`,
    [jobName, JSON.stringify(payload)],
  );
  return id as string;
}

async function insertSideEffect(key: string, status: string, finishedAt: string | null, createdAt = OLD): Promise<string> {
  await stack.db.query(
    `INSERT INTO side_effects (key, kind, status, detail, created_at, last_attempt_at, finished_at)
     VALUES ($1, split_part($1, ':', 1), $2, '{"outcome":"done"}', ${createdAt}, ${createdAt}, ${finishedAt ?? 'NULL'})`,
    [key, status],
  );
  return key;
}

async function insertAudit(at: string, ip: string): Promise<string> {
  const [{ id }] = await stack.db.query(
    `INSERT INTO admin_audit_log (admin_id, action, target, at, client_ip) VALUES (NULL, 'sign-in.failed', 'admin:none', ${at}, $1) RETURNING id`,
    [ip],
  );
  return String(id);
}

async function seed(): Promise<Seeded> {
  await stack.db.query(`TRUNCATE ${TABLES} CASCADE`);
  await stack.db.query(
    `INSERT INTO payment_events (id, type, payload, received_at, applied_at) VALUES
       ('evt_old_applied', 'payment_intent.succeeded', '{"data":{"object":{"billing_details":{"name":"Old Buyer"}}}}', ${OLD}, ${OLD}),
       ('evt_recent_applied', 'payment_intent.succeeded', '{}', ${RECENT}, ${RECENT}),
       ('evt_old_unapplied', 'payment_intent.succeeded', '{}', ${OLD}, NULL)`,
  );
  const owedOrder = randomUUID();
  const outbox = {
    oldDone: await insertOutbox(JOBS.orderPaid, { orderId: randomUUID() }, { created_at: OLD, dispatched_at: OLD, completed_at: OLD }),
    oldFailed: await insertOutbox(JOBS.invitationEmail, { invitationId: randomUUID() }, { created_at: OLD, failed_at: OLD }),
    recentDone: await insertOutbox(JOBS.orderPaid, { orderId: randomUUID() }, { created_at: RECENT, completed_at: RECENT }),
    oldOpen: await insertOutbox(NEWER_JOB, { orderId: owedOrder }, { created_at: OLD }),
    oldInFlight: await insertOutbox(NEWER_JOB, { leadId: randomUUID() }, { created_at: OLD, dispatched_at: OLD }),
  };
  // What the worker counted when it stamped the finished rows above.
  await stack.db.query(`INSERT INTO outbox_outcome_totals (job_name, completed, failed) VALUES ($1, 2, 0), ($2, 0, 1)`, [
    JOBS.orderPaid,
    JOBS.invitationEmail,
  ]);
  const sideEffects = {
    oldDone: await insertSideEffect(`receipt-email:${randomUUID()}`, 'done', OLD),
    oldFailed: await insertSideEffect(`affiliate-signup:${randomUUID()}`, 'failed', OLD),
    oldClaimed: await insertSideEffect(`meta-purchase:${randomUUID()}`, 'claimed', null),
    recentDone: await insertSideEffect(`ga4-purchase:${randomUUID()}`, 'done', RECENT, RECENT),
    // Finished long ago, but a job still open names its subject: that job may run again and must find it.
    owedDone: await insertSideEffect(`receipt-email:${owedOrder}`, 'done', OLD),
  };
  await stack.db.query(
    `INSERT INTO funnel_events (type, visitor_id, path, plan_id, occurred_at)
     SELECT CASE WHEN n % 2 = 0 THEN 'page_view' ELSE 'checkout_start' END, 'visitor-old-' || n, '/', NULL, ${OLD}
       FROM generate_series(1, 5) AS n`,
  );
  await stack.db.query(
    `INSERT INTO funnel_events (type, visitor_id, path, occurred_at) VALUES ('page_view', 'visitor-recent-1', '/', ${RECENT}),
       ('checkout_start', 'visitor-recent-2', '/checkout', now())`,
  );
  const audit = {
    old: await insertAudit(OLD, '198.51.100.1'),
    pastIpPeriod: await insertAudit(AUDIT_OLD, '198.51.100.2'),
    recent: await insertAudit(RECENT, '198.51.100.3'),
  };
  // Orders and leads are never retention's to delete, however old.
  await stack.db.query(
    `INSERT INTO leads (email, email_normalized, first_submitted_at, last_submitted_at)
     VALUES ('old.lead@example.com', 'old.lead@example.com', now() - interval '400 days', now() - interval '400 days')`,
  );
  await stack.db.query(
    `INSERT INTO orders (plan_id, kind, amount_cents, currency, email, email_normalized, name, source, provider, status, paid_at, created_at)
     VALUES ('2-month', 'one-time', 55000, 'usd', 'old.buyer@example.com', 'old.buyer@example.com', 'Old Buyer', 'clear', 'sandbox',
             'succeeded', now() - interval '400 days', now() - interval '400 days')`,
  );
  return { outbox, sideEffects, audit };
}

/** Runs the retention job through the maintenance queue, as the scheduler does, and resolves with its outcome. */
async function runRetentionJob(): Promise<string> {
  const queue = stack.api!.get(JobProducer).queue(JOB_QUEUE[JOBS.dataRetention]);
  const jobId = `retention-test-${randomUUID()}`;
  await queue.add(JOBS.dataRetention, {}, { jobId });
  await waitFor(async () => (await queue.getJob(jobId))?.finishedOn, 'the retention job to finish');
  const job = await queue.getJob(jobId);
  if (!(await job!.isCompleted())) throw new Error(`The retention job failed: ${job!.failedReason}`);
  return job!.returnvalue as string;
}

const ids = async (sql: string): Promise<string[]> =>
  (await stack.db.query<Array<{ id: string }>>(sql)).map((row) => String(row.id)).sort();

/** Completed and failed counts per job name as /api/metrics reads them. */
async function jobTotals(): Promise<Record<string, { completed: number; failed: number }>> {
  const [, outcomes] = await stack.api!.get(OutboxRepository).figures(5000);
  return Object.fromEntries(outcomes.map((row) => [row.job_name, { completed: row.completed, failed: row.failed }]));
}

beforeAll(async () => {
  await flushRedis();
  stack = await startStack({ RETENTION_BATCH_SIZE: '2' });
}, 60_000);

afterAll(async () => {
  await stack?.db.query(`TRUNCATE ${TABLES} CASCADE`);
  await stack?.stop();
});

it('schedules one daily retention job, however many workers start', async () => {
  const queue = stack.api!.get(JobProducer).queue(JOB_QUEUE[JOBS.dataRetention]);
  await waitFor(async () => (await queue.getJobSchedulers()).length > 0, 'the retention job scheduler');
  let second: INestApplicationContext | null = null;
  try {
    // A second worker process would do exactly this at its start.
    second = await NestFactory.createApplicationContext(WorkerModule, { logger: false });
    await second.init();
    await waitFor(async () => (await queue.getJobSchedulers()).length > 0, 'the scheduler after the second worker started');
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers).toEqual([expect.objectContaining({ key: RETENTION_SCHEDULER_ID, name: JOBS.dataRetention, pattern: '0 3 * * *' })]);
    const next = (await queue.getJobs(['delayed', 'waiting'])).filter((job) => job.name === JOBS.dataRetention);
    expect(next).toHaveLength(1);
    // Its next run is today's or tomorrow's 03:00 UTC.
    const runAt = new Date(next[0].timestamp + (next[0].opts.delay ?? 0));
    expect([runAt.getUTCHours(), runAt.getUTCMinutes()]).toEqual([3, 0]);
    expect(runAt.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
  } finally {
    await second?.close();
  }
});

it('deletes what is past its period in batches, keeps everything still recent, open or owed, and counts the deleted jobs on', async () => {
  const seeded = await seed();
  const totalsBefore = await jobTotals();

  expect(await runRetentionJob()).toBe('paymentEvents=1 outbox=2 sideEffects=2 funnelEvents=5 auditClientIps=2 cancellationDetails=0');

  expect(await ids('SELECT id FROM payment_events')).toEqual(['evt_old_unapplied', 'evt_recent_applied']);
  const { outbox, sideEffects, audit } = seeded;
  expect(await ids('SELECT id FROM outbox')).toEqual([outbox.recentDone, outbox.oldOpen, outbox.oldInFlight].sort());
  expect(await ids('SELECT key AS id FROM side_effects')).toEqual(
    [sideEffects.oldClaimed, sideEffects.recentDone, sideEffects.owedDone].sort(),
  );
  expect(await ids('SELECT visitor_id AS id FROM funnel_events')).toEqual(['visitor-recent-1', 'visitor-recent-2']);
  // Audit entries all stay, whole but for the address of those older than 30 days.
  expect(await stack.db.query(`SELECT id::text, action, target, client_ip FROM admin_audit_log ORDER BY at`)).toEqual([
    { id: audit.old, action: 'sign-in.failed', target: 'admin:none', client_ip: null },
    { id: audit.pastIpPeriod, action: 'sign-in.failed', target: 'admin:none', client_ip: null },
    { id: audit.recent, action: 'sign-in.failed', target: 'admin:none', client_ip: '198.51.100.3' },
  ]);
  expect(await stack.db.query(`SELECT email FROM leads`)).toEqual([{ email: 'old.lead@example.com' }]);
  expect(await stack.db.query(`SELECT email, status FROM orders`)).toEqual([{ email: 'old.buyer@example.com', status: 'succeeded' }]);
  // funnel_jobs_total is a counter: the deleted rows still count.
  expect(await jobTotals()).toEqual(totalsBefore);
  expect(totalsBefore).toMatchObject({
    [JOBS.orderPaid]: { completed: 2, failed: 0 },
    [JOBS.invitationEmail]: { completed: 0, failed: 1 },
  });
});

it('is safe to run again: a second pass finds nothing more to delete', async () => {
  await seed();
  await runRetentionJob();
  const before = {
    events: await ids('SELECT id FROM payment_events'),
    outbox: await ids('SELECT id FROM outbox'),
    ledger: await ids('SELECT key AS id FROM side_effects'),
    funnel: await ids('SELECT id::text FROM funnel_events'),
    audit: await stack.db.query(`SELECT * FROM admin_audit_log ORDER BY id`),
    totals: await jobTotals(),
  };
  expect(await runRetentionJob()).toBe('paymentEvents=0 outbox=0 sideEffects=0 funnelEvents=0 auditClientIps=0 cancellationDetails=0');
  expect({
    events: await ids('SELECT id FROM payment_events'),
    outbox: await ids('SELECT id FROM outbox'),
    ledger: await ids('SELECT key AS id FROM side_effects'),
    funnel: await ids('SELECT id::text FROM funnel_events'),
    audit: await stack.db.query(`SELECT * FROM admin_audit_log ORDER BY id`),
    totals: await jobTotals(),
  }).toEqual(before);
});

it('two passes at once (two workers) share the work: each row is deleted once and nothing else is', async () => {
  await seed();
  const totalsBefore = await jobTotals();
  const handler = stack.worker!.get(DataRetentionHandler);
  const outcomes = await Promise.all([handler.purge(), handler.purge()]);
  const sum = (kind: string) => outcomes.reduce((total, outcome) => total + Number(new RegExp(`${kind}=(\\d+)`).exec(outcome)![1]), 0);
  expect([sum('paymentEvents'), sum('outbox'), sum('sideEffects'), sum('funnelEvents'), sum('auditClientIps')]).toEqual([1, 2, 2, 5, 2]);
  expect(await stack.db.query(`SELECT count(*)::int AS n FROM funnel_events`)).toEqual([{ n: 2 }]);
  expect(await stack.db.query(`SELECT count(*)::int AS n FROM outbox`)).toEqual([{ n: 3 }]);
  expect(await jobTotals()).toEqual(totalsBefore);
});
