import { QueueEvents } from 'bullmq';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { AppConfig } from '@core/config/app-config';
import { JOB_QUEUE, JOBS } from '@contracts/jobs';
import { redisOptionsFromUrl } from '@core/queue/redis-options';
import type { Lifecycle } from '../../scripts/lib/lifecycle';
import { step } from '../../scripts/lib/log';
import { startApi, startWorker, ThrowawayData } from '../../scripts/lib/stack';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { startBenchStack } from './bench-stack';
import { BenchReport, Row, percentile } from './report';

const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 10_000);
const STEADY_RATE = Number(process.env.BENCH_STEADY_RATE ?? 100);
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 10);
const DRAIN_TIMEOUT_MS = 300_000;
const INSERT_BATCH = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number | null) => (ms === null ? null : (ms / 1000).toFixed(2));
const millis = (ms: number | null) => (ms === null ? null : Math.round(ms));

interface Drain {
  workers: number;
  /** From the first row handed to BullMQ to the last row stamped done (database clock). */
  drainMs: number;
  /** From spawning the worker(s) to the last row stamped done: includes the worker's start-up. */
  wallMs: number;
  /** CPU time the worker process(es) used for the whole run, start-up included; null off Linux. */
  workerCpuMs: number | null;
  calls: number;
  distinct: number;
  notDone: number;
}

/**
 * The worker side of a lead, on the real API, worker(s), Postgres, Redis and the loopback
 * affiliate fake: how fast one and two workers drain a backlog of affiliate-signup jobs, and how
 * long a lead waits for its affiliate call under a steady moderate load. Figures only; the
 * verdict line says whether every accepted lead got exactly one affiliate call.
 */
export async function benchQueue(life: Lifecycle): Promise<void> {
  const report = new BenchReport('queue');
  const stack = await startBenchStack(life, 'bench-queue');
  const { data, affiliate, env, db } = stack;
  try {
    const drains: Drain[] = [];
    for (const workers of [1, 2]) {
      step(`Queue: ${BACKLOG} leads written with no worker running, then ${workers} worker(s) started`);
      const prefix = `backlog${workers}`;
      await insertBacklog(db, prefix, BACKLOG);
      drains.push(await drainWith(life, env, db, affiliate, prefix, workers));
    }
    report.table(
      `Queue: a ${BACKLOG}-job backlog (affiliate-signup: read, claim, affiliate call, record, stamp)`,
      drains.map((d): Row => ({
        workers: d.workers,
        'drain s': seconds(d.drainMs),
        'jobs/s': Math.round((BACKLOG / d.drainMs) * 1000),
        'wall s (with start-up)': seconds(d.wallMs),
        'worker CPU ms/job': d.workerCpuMs === null ? null : (d.workerCpuMs / BACKLOG).toFixed(2),
        'affiliate calls': d.calls,
        distinct: d.distinct,
        'not done': d.notDone,
      })),
      `drain: first row handed to BullMQ → last row stamped done (Postgres clock); target ≤ 10 s for ${BACKLOG.toLocaleString('en')} jobs`,
      `worker CPU: user + system time of the worker process(es) over the run, start-up included, per job`,
      `tracking queue concurrency ${env.TRACKING_CONCURRENCY ?? new AppConfig().TRACKING_CONCURRENCY} per worker (TRACKING_CONCURRENCY); log level ${env.LOG_LEVEL}`,
    );

    step(`Queue: ${STEADY_RATE} leads/s through POST /api/leads for ${STEADY_SECONDS} s, one worker`);
    const steady = await steadyLoad(life, env, data, db, affiliate);
    report.table(
      `Queue: latency under a steady ${STEADY_RATE} leads/s for ${STEADY_SECONDS} s (one worker)`,
      [
        {
          measure: 'lead accepted (201) → affiliate call received',
          n: steady.toCall.length,
          'p50 ms': millis(percentile(steady.toCall, 50)),
          'p99 ms': millis(percentile(steady.toCall, 99)),
          'max ms': millis(percentile(steady.toCall, 100)),
        },
        {
          measure: 'outbox row written → job active',
          n: steady.toActive.length,
          'p50 ms': millis(percentile(steady.toActive, 50)),
          'p99 ms': millis(percentile(steady.toActive, 99)),
          'max ms': millis(percentile(steady.toActive, 100)),
        },
      ],
      'job active: the worker took the job from BullMQ (its "active" event); target p99 ≤ 1 s',
      `sent ${steady.sent}, accepted ${steady.accepted}, refused or failed ${steady.sent - steady.accepted}`,
    );

    const notDone = drains.reduce((n, d) => n + d.notDone, steady.notDone);
    // The fake acts on a signup once; a repeat reaches it as a "duplicate" attempt, counted here.
    const repeats = affiliate.signupAttempts().filter((a) => a.answer === 'duplicate').length;
    report.table(
      'Queue: verdict',
      [
        {
          'accepted leads without their job done': notDone,
          'repeated affiliate calls': repeats,
          verdict: notDone === 0 && repeats === 0 ? 'ok' : 'MISMATCH',
        },
      ],
      '"done": the outbox row is stamped completed and the fake acted on the lead\'s signup; a repeat is any second request for a signup it already has',
    );
  } finally {
    await stack.stop();
  }
}

/** Leads, submissions and outbox rows written as the API's lead writer does, in batched transactions. */
async function insertBacklog(db: Client, prefix: string, count: number): Promise<void> {
  for (let start = 0; start < count; start += INSERT_BATCH) {
    const emails = Array.from({ length: Math.min(INSERT_BATCH, count - start) }, (_, i) => `bench-${prefix}-${start + i}@example.com`);
    await db.query('BEGIN');
    await db.query(
      `WITH lead AS (
         INSERT INTO leads (email, email_normalized, name, referral, attribution)
         SELECT e, e, 'Bench', 'partner7', '{}'::jsonb FROM unnest($1::text[]) AS e
         RETURNING id
       ), submission AS (
         INSERT INTO lead_submissions (lead_id, name, referral) SELECT id, 'Bench', 'partner7' FROM lead
       )
       INSERT INTO outbox (queue, job_name, payload)
       SELECT $2, $3, jsonb_build_object('leadId', id) FROM lead`,
      [emails, JOB_QUEUE[JOBS.affiliateSignup], JOBS.affiliateSignup],
    );
    await db.query('COMMIT');
  }
}

async function drainWith(
  life: Lifecycle,
  env: NodeJS.ProcessEnv,
  db: Client,
  affiliate: FakeAffiliateServer,
  prefix: string,
  count: number,
): Promise<Drain> {
  const spawnedAt = Date.now();
  const workers = Array.from({ length: count }, (_, i) => startWorker(life, env, `Worker ${i + 1}`));
  try {
    const open = await waitForOutbox(db, prefix);
    const wallMs = Date.now() - spawnedAt;
    const [{ drain_ms }] = (
      await db.query(
        `SELECT EXTRACT(EPOCH FROM max(o.completed_at) - min(o.dispatched_at)) * 1000 AS drain_ms
           FROM outbox o JOIN leads l ON l.id = (o.payload->>'leadId')::uuid WHERE l.email LIKE $1`,
        [`bench-${prefix}-%`],
      )
    ).rows;
    const calls = affiliate.signups().filter((c) => c.params.email.startsWith(`bench-${prefix}-`));
    const distinct = new Set(calls.map((c) => c.params.uid)).size;
    const cpu = workers.map((w) => cpuMs(w.child.pid));
    const workerCpuMs = cpu.every((ms) => ms !== null) ? cpu.reduce((a, b) => a + b, 0) : null;
    return {
      workers: count,
      drainMs: Number(drain_ms),
      wallMs,
      workerCpuMs,
      calls: calls.length,
      distinct,
      notDone: open + (BACKLOG - distinct),
    };
  } finally {
    await Promise.all(workers.map((w) => w.release()));
  }
}

/** User + system CPU time of a live process so far, from /proc (Linux); null where that is not readable. */
function cpuMs(pid: number | undefined): number | null {
  try {
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th, in clock ticks (100/s).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * Waits until no outbox row of these leads that is due is open (their abandoned-checkout reminders
 * are owed for later); resolves with how many still are (0 unless timed out).
 */
async function waitForOutbox(db: Client, prefix: string): Promise<number> {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM outbox o JOIN leads l ON l.id = (o.payload->>'leadId')::uuid
        WHERE l.email LIKE $1 AND o.completed_at IS NULL AND (o.available_at IS NULL OR o.available_at <= now())`,
      [`bench-${prefix}-%`],
    );
    if (rows[0].n === 0 || Date.now() > deadline) return rows[0].n;
    await sleep(100);
  }
}

interface Steady {
  sent: number;
  accepted: number;
  toCall: number[];
  toActive: number[];
  notDone: number;
}

async function steadyLoad(
  life: Lifecycle,
  env: NodeJS.ProcessEnv,
  data: ThrowawayData,
  db: Client,
  affiliate: FakeAffiliateServer,
): Promise<Steady> {
  const api = await startApi(life, env);
  const worker = startWorker(life, env);
  const events = new QueueEvents(JOB_QUEUE[JOBS.affiliateSignup], { connection: redisOptionsFromUrl(data.redisUrl) });
  const activeAt = new Map<string, number>();
  events.on('active', ({ jobId }) => {
    if (!activeAt.has(jobId)) activeAt.set(jobId, Date.now());
  });
  try {
    await events.waitUntilReady();
    // The worker is ready once a first lead's affiliate call arrives.
    await postLead(api.url, 'bench-warmup-0@example.com');
    while (!affiliate.signups().some((c) => c.params.email === 'bench-warmup-0@example.com')) await sleep(50);

    const acceptedAt = new Map<string, number>();
    const requests: Array<Promise<void>> = [];
    const started = Date.now();
    const total = STEADY_RATE * STEADY_SECONDS;
    for (let i = 0; i < total; i++) {
      // Paced against the start, so a slow tick does not lower the rate.
      const due = started + (i * 1000) / STEADY_RATE;
      if (due > Date.now()) await sleep(due - Date.now());
      const email = `bench-steady-${i}@example.com`;
      requests.push(
        postLead(api.url, email).then(
          (ok) => void (ok && acceptedAt.set(email, Date.now())),
          () => undefined,
        ),
      );
    }
    await Promise.all(requests);
    const open = await waitForOutbox(db, 'steady');

    const calls = affiliate.signups().filter((c) => c.params.email.startsWith('bench-steady-'));
    const firstCall = new Map<string, number>();
    for (const call of calls) if (!firstCall.has(call.params.email)) firstCall.set(call.params.email, call.at);
    const toCall = [...acceptedAt].flatMap(([email, at]) => (firstCall.has(email) ? [firstCall.get(email)! - at] : []));
    const { rows } = await db.query(
      `SELECT o.id, EXTRACT(EPOCH FROM o.created_at) * 1000 AS written
         FROM outbox o JOIN leads l ON l.id = (o.payload->>'leadId')::uuid WHERE l.email LIKE 'bench-steady-%'`,
    );
    const toActive = rows.flatMap((r: { id: string; written: string }) =>
      activeAt.has(r.id) ? [activeAt.get(r.id)! - Number(r.written)] : [],
    );
    const missing = [...acceptedAt.keys()].filter((email) => !firstCall.has(email)).length;
    return { sent: total, accepted: acceptedAt.size, toCall, toActive, notDone: open + missing };
  } finally {
    await events.close();
    await worker.release();
    await api.release();
  }
}

async function postLead(baseUrl: string, email: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, name: 'Bench', referral: 'partner7' }),
  });
  await res.arrayBuffer();
  return res.status === 201;
}
