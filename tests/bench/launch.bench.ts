import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { request } from 'undici';
import { ORDER_PAID_EFFECTS, SIDE_EFFECTS } from '@contracts/jobs';
import { isPlanId, type PlanId, planOf } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { messageIdFor } from '../../worker/src/clients/smtp-mailer.client';
import { buildImage, containerPid, dockerReady, fromContainers, startComposeStack } from '../../scripts/lib/compose';
import type { Lifecycle } from '../../scripts/lib/lifecycle';
import { step } from '../../scripts/lib/log';
import { freePort } from '../../scripts/lib/ports';
import { startProcess, waitForHttp } from '../../scripts/lib/processes';
import { repoRoot, startApi, startWorker } from '../../scripts/lib/stack';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { exactlyOnceProblems, type DoorAttempt } from '../fakes/exactly-once';
import { FakeMetaCapiServer } from '../fakes/meta-capi-server';
import { FakeMembersArea } from '../fakes/members-area-server';
import { BENCH_ROLE, ONE_CLIENT_LIMITS, startBenchStack } from './bench-stack';
import { cpuMs } from './process-cpu';
import { BenchReport, percentile, type Row } from './report';

/** The calls a buyer makes, in the SPA's order (spec sections 4 and 7). */
const STEPS = ['lead', 'intent', 'confirm', 'subscribe', 'verify'] as const;
type StepName = (typeof STEPS)[number];
const STEP_LABEL: Record<StepName, string> = {
  lead: 'POST /api/leads',
  intent: 'POST /api/create-(setup|payment)-intent',
  confirm: 'POST /api/sandbox/confirm-(setup|payment)',
  subscribe: 'POST /api/confirm-subscription',
  verify: 'GET /api/verify-(subscription|payment)/{id}',
};

/** The members area's webhook signing secret (the bench's own): whsec_ and base64 of 33 bytes, the shape the config asks. */
const MEMBERS_AREA_SECRET = `whsec_${Buffer.from('bench-members-area-signing-key-01').toString('base64')}`;

/** Where the fakes the product calls listen, as seen from this machine. */
interface FakeUrls {
  meta: string;
  members: string;
}

/** Spec section 7: verification is retried 3 times, 1 s apart. */
const VERIFY_INTERVAL_MS = 1000;

interface Settings {
  rates: number[];
  seconds: number;
  mix: Array<{ plan: PlanId; weight: number }>;
  /** Verification tries per buyer before it counts as unverified (the SPA makes 4: one and 3 retries). */
  verifyTries: number;
  requestTimeoutMs: number;
  drainTimeoutMs: number;
  /** Rates to run past the first one over the knee (the rest are skipped: the queues only grow). */
  pastKnee: number;
  /** Count the app's statements per order (pg_stat_statements; BENCH_LAUNCH_STATEMENTS=0 turns it off). */
  countStatements: boolean;
}

function settings(): Settings {
  const mix = (process.env.BENCH_LAUNCH_MIX ?? 'standard:4,full-payment:3,6-month:1,2-month:1,payment-plan:1').split(',').map((part) => {
    const [plan, weight] = part.split(':');
    if (!isPlanId(plan)) throw new Error(`BENCH_LAUNCH_MIX: unknown plan "${plan}"`);
    return { plan, weight: Number(weight ?? 1) };
  });
  return {
    rates: (process.env.BENCH_LAUNCH_RATES ?? '25,50,75,100,125,150,200,400').split(',').map(Number),
    seconds: Number(process.env.BENCH_LAUNCH_SECONDS ?? 20),
    mix,
    verifyTries: Number(process.env.BENCH_LAUNCH_VERIFY_TRIES ?? 4),
    requestTimeoutMs: Number(process.env.BENCH_LAUNCH_TIMEOUT_S ?? 30) * 1000,
    drainTimeoutMs: Number(process.env.BENCH_LAUNCH_DRAIN_TIMEOUT_S ?? 180) * 1000,
    pastKnee: Number(process.env.BENCH_LAUNCH_PAST_KNEE ?? 1),
    countStatements: (process.env.BENCH_LAUNCH_STATEMENTS ?? '1') !== '0',
  };
}

interface Buyer {
  email: string;
  plan: PlanId;
  arrivedAt: number;
  latencies: Partial<Record<StepName, number[]>>;
  /** The step that failed and its answer (an HTTP status, 'timeout' or 'network'); absent when paid or still going. */
  failure?: { step: StepName; status: string };
  /** When verification first answered 'succeeded' or 'active'. */
  paidAt?: number;
}

class StepFailure extends Error {
  constructor(
    readonly step: StepName,
    readonly status: string,
  ) {
    super(`${step}: ${status}`);
  }
}

/** The processes whose CPU is read before and after each rate: every replica of each, with its children. */
interface Pids {
  api: number[];
  worker: number[];
  postgres: number[];
  redis: number[];
  smtp: number[];
  /** Caddy, in front of the Compose stack; none in the local one. */
  proxy: number[];
}
type Cpu = Record<keyof Pids | 'generator', number | null>;

const PROCESS_LABEL: Record<keyof Cpu, string> = {
  api: 'API',
  worker: 'worker',
  postgres: 'Postgres (all backends)',
  redis: 'Redis',
  smtp: 'SMTP sink',
  proxy: 'Caddy',
  generator: 'load generator + fakes (this process)',
};

/**
 * What the product itself runs on (the proxy only through Compose): the SMTP sink, the load
 * generator and the fakes stand in for buyers and third parties, which a deployment does not host.
 */
const PRODUCT_PROCESSES: ReadonlyArray<keyof Cpu> = ['api', 'worker', 'postgres', 'redis', 'proxy'];
const CORES = availableParallelism();

const pidList = (pid: number | undefined): number[] => (pid === undefined ? [] : [pid]);

/** CPU ms so far of every process listed (with their children), null when there are none or one is gone. */
function cpuOf(pids: number[]): number | null {
  if (!pids.length) return null;
  let sum = 0;
  for (const pid of pids) {
    const used = cpuMs(pid, true);
    if (used === null) return null;
    sum += used;
  }
  return sum;
}

/** Where the buyers go: the site's URL, a client of its database, and its processes. */
interface Target {
  /** How the table titles name it. */
  label: string;
  url: string;
  db: Client;
  pids: Pids;
  /** Stops and removes what the target started, last first. */
  stop(): Promise<void>;
}

/**
 * `npm run bench:launch`: a launch-day rush through the SPA's calls. Buyers arrive open-loop at
 * fixed rates stepping up (BENCH_LAUNCH_RATES per second, BENCH_LAUNCH_SECONDS each): each saves
 * a lead, creates its intent, confirms the card with the sandbox (and confirm-subscription for a
 * subscription), then verifies 1 s apart until paid. Per rate: paid orders/s, p50/p99 per call
 * and for the whole purchase, failures by status, CPU ms per paid order of every process, and
 * whether every paid buyer got exactly one receipt at the SMTP sink and one of each paid effect.
 * The knee is the highest rate at which every call's p99 stays ≤ 1 s with no buyer failed.
 */
export async function benchLaunch(life: Lifecycle): Promise<void> {
  const s = settings();
  const report = new BenchReport('launch');
  const compose = (process.env.BENCH_LAUNCH_STACK ?? 'local') === 'compose';
  if (compose && s.countStatements)
    step('Launch: statements are not counted against the Compose stack (its Postgres has no pg_stat_statements)');
  if (compose) s.countStatements = false;

  // The fakes listen where the Compose stack's containers reach them too (host.docker.internal).
  const meta = new FakeMetaCapiServer({ accessToken: 'bench-meta-token' });
  await meta.start(0, compose ? '0.0.0.0' : '127.0.0.1');
  const stopMeta = life.own('Fake Meta CAPI', () => meta.stop());
  // The members area is told of each paid buyer's access, as a deployment with one would be.
  const members = new FakeMembersArea(MEMBERS_AREA_SECRET);
  const membersUrl = await members.start(0, compose ? '0.0.0.0' : '127.0.0.1');
  const stopMembers = life.own('Fake members area', () => members.stop());
  const sink = await startSmtpSink(life, compose);
  const effects: Record<string, string> = {
    META_PIXEL_ID: '1234567890',
    META_CAPI_ACCESS_TOKEN: 'bench-meta-token',
    // Sandbox orders are test orders: Meta gets their Purchase only as a test event.
    META_TEST_EVENT_CODE: 'TEST-BENCH',
    MEMBERSHIP_WEBHOOK_SECRET: MEMBERS_AREA_SECRET,
    // ...and reach the members area only with this, which the bench counts on.
    MEMBERSHIP_WEBHOOK_TEST_ORDERS: 'true',
    RATE_LIMIT_INTENTS_PER_EMAIL: '100000000',
    RATE_LIMIT_CONFIRMATIONS_PER_ORDER: '100000000',
    // Lets the bench read each rate's refusals (funnel_http_shed_total) from the API.
    METRICS_TOKEN: BENCH_METRICS_TOKEN,
  };
  const fakes: FakeUrls = { meta: meta.url, members: membersUrl };
  const target = compose ? await composeTarget(life, effects, fakes, sink) : await localTarget(life, s, effects, fakes, sink);
  const { db, pids } = target;
  try {
    const readCpu = (): Cpu => ({
      api: cpuOf(pids.api),
      worker: cpuOf(pids.worker),
      postgres: cpuOf(pids.postgres),
      redis: cpuOf(pids.redis),
      smtp: cpuOf(pids.smtp),
      proxy: cpuOf(pids.proxy),
      generator: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    });

    step('Launch: warming up (10 buyers, not counted)');
    await runRate(target.url, 'warm', 5, 2, s);
    await drained(db, 'warm', s.drainTimeoutMs);
    // What the API and worker use with no buyer at all (pollers, timers), to tell it from the buyers' share.
    const idleSeconds = Number(process.env.BENCH_LAUNCH_IDLE_S ?? 5);
    const idleStart = readCpu();
    await sleep(idleSeconds * 1000);
    const idleEnd = readCpu();
    const idleAppMsPerS = (['api', 'worker'] as const).reduce((sum, k) => sum + ((idleEnd[k] ?? 0) - (idleStart[k] ?? 0)), 0) / idleSeconds;

    const stepRows: Row[] = [];
    const callRows: Row[] = [];
    const cpuRows: Row[] = [];
    const onceRows: Row[] = [];
    const shedRows: Row[] = [];
    const workRows: Row[] = [];
    const statementRows: Row[] = [];
    let knee: number | null = null;
    let past = 0;
    for (const [index, rate] of s.rates.entries()) {
      const tag = `r${index}`;
      step(`Launch: ${rate} buyers/s for ${s.seconds} s (open loop), then the effects drained`);
      const before = readCpu();
      const shedBefore = compose ? null : await shedCounts(target.url);
      const workBefore = await databaseWork(db, s.countStatements);
      const started = performance.now();
      const buyers = await runRate(target.url, tag, rate, s.seconds, s);
      const answeredS = (performance.now() - started) / 1000;
      const drain = await drained(db, tag, s.drainTimeoutMs);
      const stepSeconds = (performance.now() - started) / 1000;
      const after = readCpu();
      const shedAfter = compose ? null : await shedCounts(target.url);
      const workAfter = await databaseWork(db, s.countStatements);

      const paid = buyers.filter((b) => b.paidAt !== undefined);
      const lastPaid = Math.max(...paid.map((b) => b.paidAt!), started);
      const whole = paid.map((b) => b.paidAt! - b.arrivedAt);
      const failures = new Map<string, number>();
      for (const b of buyers)
        if (b.failure)
          failures.set(`${b.failure.step} ${b.failure.status}`, (failures.get(`${b.failure.step} ${b.failure.status}`) ?? 0) + 1);
      const p99s = STEPS.map(
        (name) =>
          percentile(
            buyers.flatMap((b) => b.latencies[name] ?? []),
            99,
          ) ?? 0,
      );
      const healthy = Math.max(...p99s) <= 1000 && failures.size === 0;
      if (healthy && past === 0) knee = rate;
      if (!healthy) past += 1;

      stepRows.push({
        'buyers/s offered': rate,
        buyers: buyers.length,
        paid: paid.length,
        'paid orders/s': (paid.length / Math.max(1e-3, (lastPaid - started) / 1000)).toFixed(1),
        'whole p50 ms': ms(percentile(whole, 50)),
        'whole p99 ms': ms(percentile(whole, 99)),
        'worst call p99 ms': ms(Math.max(...p99s)),
        failures: [...failures].map(([k, n]) => `${k} ×${n}`).join(', ') || '0',
        'answered s': answeredS.toFixed(1),
        'drain s': (drain.waitedMs / 1000).toFixed(1) + (drain.complete ? '' : ' (timed out)'),
      });
      for (const name of STEPS) {
        const samples = buyers.flatMap((b) => b.latencies[name] ?? []);
        if (!samples.length) continue;
        callRows.push({
          'buyers/s': rate,
          call: STEP_LABEL[name],
          n: samples.length,
          'p50 ms': ms(percentile(samples, 50)),
          'p99 ms': ms(percentile(samples, 99)),
          'max ms': ms(Math.max(...samples)),
        });
      }
      const cpuRow: Row = { 'buyers/s': rate, 'paid orders': paid.length };
      const used = (key: keyof Cpu): number | null => (before[key] !== null && after[key] !== null ? after[key] - before[key] : null);
      for (const key of Object.keys(PROCESS_LABEL) as Array<keyof Cpu>) {
        const ms = used(key);
        cpuRow[PROCESS_LABEL[key]] = ms === null || !paid.length ? null : (ms / paid.length).toFixed(2);
      }
      const appCpu = (used('api') ?? 0) + (used('worker') ?? 0);
      // Only Compose has a proxy; any other process of the product unread leaves the sum unknown.
      const productParts = PRODUCT_PROCESSES.filter((key) => key !== 'proxy' || used(key) !== null).map(used);
      const productCpu = productParts.includes(null) ? null : productParts.reduce<number>((sum, ms) => sum + (ms ?? 0), 0);
      cpuRow['API + worker'] = paid.length ? (appCpu / paid.length).toFixed(2) : null;
      cpuRow['API + worker, idle taken out'] = paid.length ? ((appCpu - idleAppMsPerS * stepSeconds) / paid.length).toFixed(2) : null;
      cpuRow['API + worker per buyer'] = buyers.length ? (appCpu / buyers.length).toFixed(2) : null;
      const productMs = productCpu !== null && paid.length ? productCpu / paid.length : null;
      cpuRow['product'] = productMs === null ? null : productMs.toFixed(2);
      cpuRow[`product's ceiling on ${CORES} cores (orders/s)`] = productMs ? Math.floor((CORES * 1000) / productMs) : null;
      cpuRows.push(cpuRow);
      if (shedBefore && shedAfter)
        shedRows.push({ 'buyers/s': rate, 'busy answers (class reason ×n)': shedDifference(shedBefore, shedAfter) });
      workRows.push(workPerOrder(rate, paid.length, workBefore, workAfter));
      statementRows.push(...statementsPerOrder(rate, paid.length, workBefore, workAfter));
      onceRows.push({
        'buyers/s': rate,
        ...(await effectsExactlyOnce(db, sink.inspectorUrl, { meta, members }, tag, buyers, site.brand.sender.address)),
      });
      if (!healthy && past > s.pastKnee) break;
    }
    const skipped = s.rates.length - stepRows.length;

    report.table(
      `Launch: buyers arriving open-loop at each rate for ${s.seconds} s (${target.label}; all of it, the fakes and the load generator share this machine)`,
      stepRows,
      `mix: ${s.mix.map((m) => `${m.plan} ×${m.weight}`).join(', ')}; verification every ${VERIFY_INTERVAL_MS} ms, at most ${s.verifyTries} tries`,
      'paid orders/s: buyers verified paid, over the time from the rate’s first arrival to its last paid verification.',
      'whole: arrival → verification answered paid. failures: the call that failed and its answer (buyers, not requests).',
      ...(skipped ? [`${skipped} higher rate(s) skipped: ${s.pastKnee} rate(s) past the knee already ran (BENCH_LAUNCH_PAST_KNEE).`] : []),
    );
    report.table('Launch: each call, per rate (every verification poll counts)', callRows);
    report.table(
      'Launch: CPU ms per paid order, per process (user + system from /proc, from the rate’s start to its effects drained)',
      cpuRows,
      'Postgres: the postmaster, its backends and the backends that exited. Redis: the server and any save it forked.',
      `idle taken out: less what the API and worker used at rest (${idleAppMsPerS.toFixed(1)} ms/s over ${idleSeconds} s before the first rate) for the rate's duration.`,
      'per buyer: over every buyer who arrived, paid or not (failed buyers did part of the work).',
      `product: API, worker, Postgres and Redis (and Caddy through Compose). Its ceiling: the paid orders/s all ${CORES} cores could carry at that cost with nothing else running (no load generator, fakes or sink) and no headroom for p99s.`,
    );
    if (shedRows.length)
      report.table(
        "Launch: the API's busy answers by route class and reason (its funnel_http_shed_total, from the rate's start to its effects drained)",
        shedRows,
        'money: a purchase under way; checkout: one being started; standard: leads and the rest. See docs/operations.md, Load shedding.',
      );
    report.table(
      'Launch: work per paid order (Postgres commits and outbox rows owed, by job, from the rate’s start to its effects drained)',
      workRows,
      'Jobs owed for later (instalments, reminders) count when owed. Leads’ own jobs are in, as each buyer saves one.',
      ...(s.countStatements ? ['statements: the API’s and worker’s, as pg_stat_statements counts them (BEGIN and COMMIT included).'] : []),
    );
    if (s.countStatements)
      report.table(
        `Launch: the app's statements per paid order, the ${TOP_STATEMENTS} that took Postgres longest (pg_stat_statements: execution and planning time)`,
        statementRows,
      );
    report.table('Launch: every paid buyer got exactly one receipt and one of each paid effect', onceRows);
    report.table(
      'Launch: the knee',
      [{ 'knee (buyers/s)': knee ?? `< ${s.rates[0]}`, 'rates run': stepRows.map((r) => r['buyers/s offered']).join(', ') }],
      'The highest rate at which every call’s p99 stayed ≤ 1 s and no buyer failed (below it, all did too).',
    );
  } finally {
    await target.stop();
    await sink.stop();
    await stopMembers();
    await stopMeta();
  }
}

/** The compiled API and worker, one process each, over the bench's throwaway Postgres and Redis. */
async function localTarget(
  life: Lifecycle,
  s: Settings,
  effects: Record<string, string>,
  fakes: FakeUrls,
  sink: SinkProcess,
): Promise<Target> {
  const stack = await startBenchStack(life, 'bench-launch', { countStatements: s.countStatements });
  const { data, env: baseEnv, db } = stack;
  const env: NodeJS.ProcessEnv = {
    ...baseEnv,
    ...effects,
    SMTP_URL: sink.smtpUrl,
    META_CAPI_URL: fakes.meta,
    MEMBERSHIP_WEBHOOK_URL: fakes.members,
  };
  const { worker, api } = await startApp(life, env, process.env.BENCH_CPU_PROF_DIR);
  return {
    label: '1 API and 1 worker process, Postgres and Redis on this machine',
    url: api.url,
    db,
    pids: {
      api: pidList(api.child.pid),
      worker: pidList(worker.child.pid),
      postgres: pidList(postmasterPid(data.scratch)),
      redis: pidList(redisPid(data.redisUrl)),
      smtp: pidList(sink.pid),
      proxy: [],
    },
    async stop() {
      await api.release();
      await worker.release();
      await stack.stop();
    },
  };
}

/**
 * docker-compose.yml as deployed (BENCH_LAUNCH_STACK=compose): the image built from this tree,
 * BENCH_LAUNCH_APIS API and BENCH_LAUNCH_WORKERS worker replicas (2 each), Postgres, Redis and Caddy
 * in containers, the buyers through Caddy. Its Postgres is published on this machine's loopback
 * for the bench's counting client only; the workers reach the fakes through host.docker.internal.
 */
async function composeTarget(life: Lifecycle, effects: Record<string, string>, fakes: FakeUrls, sink: SinkProcess): Promise<Target> {
  const resultsDir = join(repoRoot, 'test-results', 'bench');
  mkdirSync(resultsDir, { recursive: true });
  await dockerReady();
  const buildLog = join(resultsDir, 'compose-build.log');
  rmSync(buildLog, { force: true });
  step(`Launch: image built in ${await buildImage('bench-launch', buildLog)} s`);
  const affiliate = new FakeAffiliateServer();
  await affiliate.start(0, '0.0.0.0');
  const stopAffiliate = life.own('Fake affiliate service', () => affiliate.stop());
  const pgPort = await freePort();
  const apis = Number(process.env.BENCH_LAUNCH_APIS ?? 2);
  const workers = Number(process.env.BENCH_LAUNCH_WORKERS ?? 2);
  const stack = await startComposeStack(life, {
    imageTag: 'bench-launch',
    name: 'bench-launch',
    resultsDir,
    apiReplicas: apis,
    workerReplicas: workers,
    env: [
      ...Object.entries(effects).map(([key, value]) => `${key}=${value}`),
      ...Object.entries(ONE_CLIENT_LIMITS).map(([key, value]) => `${key}=${value}`),
      `SMTP_URL=${fromContainers(sink.smtpUrl)}`,
      `META_CAPI_URL=${fromContainers(fakes.meta)}`,
      `MEMBERSHIP_WEBHOOK_URL=${fromContainers(fakes.members)}`,
      `AFFILIATE_API_URL=${fromContainers(affiliate.url)}`,
      'AFFILIATE_API_KEY=bench-key',
      `LOG_LEVEL=${process.env.BENCH_LOG_LEVEL ?? 'warn'}`,
    ],
    services: ['  postgres:', `    ports: ['127.0.0.1:${pgPort}:5432']`],
  });
  const db = new Client({ connectionString: `postgres://clear:${stack.postgresPassword}@127.0.0.1:${pgPort}/clear` });
  await db.connect();
  const closeDb = life.own('Bench database client', () => db.end());
  const pidsOf = async (service: string) =>
    (await Promise.all((await stack.containers(service)).map(containerPid))).filter((pid): pid is number => pid !== undefined);
  return {
    label: `Compose: ${apis} API and ${workers} worker containers, Postgres, Redis and Caddy in containers, the buyers through Caddy`,
    url: stack.site,
    db,
    pids: {
      api: await pidsOf('api'),
      worker: await pidsOf('worker'),
      postgres: await pidsOf('postgres'),
      redis: await pidsOf('redis'),
      smtp: pidList(sink.pid),
      proxy: await pidsOf('proxy'),
    },
    async stop() {
      await closeDb();
      await stack.stop();
      await stopAffiliate();
    },
  };
}

/** Buyers arriving every 1/rate s for `seconds`, each going through its purchase without waiting for the others. */
async function runRate(baseUrl: string, tag: string, rate: number, seconds: number, s: Settings): Promise<Buyer[]> {
  const total = Math.round(rate * seconds);
  const bag = s.mix.flatMap((m) => Array<PlanId>(m.weight).fill(m.plan));
  const buyers: Buyer[] = [];
  const journeys: Array<Promise<void>> = [];
  const t0 = performance.now();
  while (buyers.length < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate) + 1);
    while (buyers.length < due) {
      const n = buyers.length;
      const buyer: Buyer = {
        email: `launch-${tag}-${process.pid}-${n}@example.com`,
        plan: bag[n % bag.length],
        arrivedAt: performance.now(),
        latencies: {},
      };
      buyers.push(buyer);
      journeys.push(purchase(baseUrl, buyer, s));
    }
    await sleep(Math.max(1, (buyers.length / rate) * 1000 - (performance.now() - t0)));
  }
  await Promise.all(journeys);
  return buyers;
}

/** One buyer through the SPA's calls; a failed call ends the purchase as the SPA's toast would. */
async function purchase(baseUrl: string, buyer: Buyer, s: Settings): Promise<void> {
  const plan = planOf(buyer.plan);
  const party = { email: buyer.email, name: 'Launch Buyer', source: 'clear' };
  const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
  let cookie = '';
  const call = async (name: StepName, path: string, body?: object): Promise<Record<string, unknown>> => {
    const started = performance.now();
    let status: number;
    let text: string;
    let setCookie: string | string[] | undefined;
    try {
      // undici's request, not fetch: the load generator shares the machine, and fetch costs it
      // several times the CPU per call.
      const res = await request(`${baseUrl}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(s.requestTimeoutMs),
      });
      status = res.statusCode;
      setCookie = res.headers['set-cookie'];
      text = await res.body.text();
    } catch (err) {
      (buyer.latencies[name] ??= []).push(performance.now() - started);
      throw new StepFailure(name, (err as Error).name === 'TimeoutError' ? 'timeout' : 'network');
    }
    (buyer.latencies[name] ??= []).push(performance.now() - started);
    if (status < 200 || status >= 300) throw new StepFailure(name, String(status));
    const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
    if (first) cookie = first.split(';')[0];
    return JSON.parse(text) as Record<string, unknown>;
  };
  try {
    await call('lead', '/api/leads', { email: buyer.email, name: 'Launch Buyer' });
    let verifyPath: string;
    if (plan.kind === 'subscription') {
      const { clientSecret } = (await call('intent', '/api/create-setup-intent', { ...party, planId: plan.id })) as {
        clientSecret: string;
      };
      const confirmed = await call('confirm', '/api/sandbox/confirm-setup', {
        clientSecret,
        card,
        returnUrl: `${baseUrl}/checkout?plan=${plan.id}`,
      });
      if (confirmed.error) throw new StepFailure('confirm', 'card refused');
      const { subscriptionId } = (await call('subscribe', '/api/confirm-subscription', {
        ...party,
        setupIntentId: clientSecret.split('_secret_')[0],
        plan: plan.name,
        amount: plan.amount,
      })) as { subscriptionId: string };
      verifyPath = `/api/verify-subscription/${subscriptionId}`;
    } else {
      const { clientSecret } = (await call('intent', '/api/create-payment-intent', { ...party, plan: plan.name, amount: plan.amount })) as {
        clientSecret: string;
      };
      const confirmed = await call('confirm', '/api/sandbox/confirm-payment', {
        clientSecret,
        card,
        returnUrl: `${baseUrl}/success?plan=${plan.id}`,
      });
      if (confirmed.error) throw new StepFailure('confirm', 'card refused');
      verifyPath = `/api/verify-payment/${clientSecret.split('_secret_')[0]}`;
    }
    let last: StepFailure | null = null;
    for (let attempt = 0; attempt < s.verifyTries; attempt++) {
      if (attempt) await sleep(VERIFY_INTERVAL_MS);
      try {
        const { status } = (await call('verify', verifyPath)) as { status: string };
        if (status === 'succeeded' || status === 'active') {
          buyer.paidAt = performance.now();
          return;
        }
        last = new StepFailure('verify', `answered '${status}'`);
      } catch (err) {
        if (!(err instanceof StepFailure)) throw err;
        last = err;
      }
    }
    throw last ?? new StepFailure('verify', 'never answered');
  } catch (err) {
    if (!(err instanceof StepFailure)) throw err;
    buyer.failure = { step: err.step, status: err.status };
  }
}

/**
 * Waits until the rate's paid orders have every paid effect recorded and no due outbox row is
 * open (jobs owed for later, like instalments and reminders, are not waited for).
 */
async function drained(db: Client, tag: string, timeoutMs: number): Promise<{ waitedMs: number; complete: boolean }> {
  const started = Date.now();
  const like = `launch-${tag}-%`;
  for (;;) {
    const { rows } = await db.query<{ unsettled: number; open: number }>(
      `SELECT (SELECT count(*)::int FROM orders WHERE email LIKE $1 AND paid_at IS NOT NULL
                 AND NOT (paid_effects ?& $2::text[])) AS unsettled,
              (SELECT count(*)::int FROM outbox WHERE completed_at IS NULL AND failed_at IS NULL
                 AND coalesce(available_at, created_at) <= now()) AS open`,
      [like, [...ORDER_PAID_EFFECTS]],
    );
    if (rows[0].unsettled === 0 && rows[0].open === 0) return { waitedMs: Date.now() - started, complete: true };
    if (Date.now() - started > timeoutMs) return { waitedMs: Date.now() - started, complete: false };
    await sleep(250);
  }
}

/**
 * At the fakes' doors: one receipt per paid order (its Message-ID, and one message per paid
 * buyer's address), one Meta test Purchase per paid order (its purchase event id) and one
 * access grant per paid buyer's membership at the members area (its notice id); the ledger's
 * `paid_effects` has each of ORDER_PAID_EFFECTS for every paid order.
 */
async function effectsExactlyOnce(
  db: Client,
  inspectorUrl: string,
  { meta, members }: { meta: FakeMetaCapiServer; members: FakeMembersArea },
  tag: string,
  buyers: Buyer[],
  mailFrom: string,
): Promise<Row> {
  const { rows: orders } = await db.query<{
    id: string;
    email: string;
    purchase_event_id: string;
    effects: number;
    membership_id: string | null;
  }>(
    `SELECT o.id, o.email, o.purchase_event_id, (SELECT count(*)::int FROM jsonb_object_keys(o.paid_effects)) AS effects,
            m.id AS membership_id
       FROM orders o LEFT JOIN memberships m ON m.order_id = o.id
      WHERE o.email LIKE $1 AND o.paid_at IS NOT NULL`,
    [`launch-${tag}-%`],
  );
  const door = (await (await fetch(`${inspectorUrl.replace(/__messages$/, '__door')}`)).json()) as {
    attempts: DoorAttempt[];
    accepted: Array<{ to: string[]; messageId?: string }>;
  };
  const receiptIds = new Set(orders.map((o) => messageIdFor(`${SIDE_EFFECTS.receiptEmail}:${o.id}`, mailFrom)));
  const receiptProblems = exactlyOnceProblems(
    door.attempts.filter((a) => receiptIds.has(a.identity)),
    [...receiptIds],
  );
  const perAddress = new Map<string, number>();
  for (const m of door.accepted)
    for (const to of m.to) if (to.startsWith(`launch-${tag}-`)) perAddress.set(to, (perAddress.get(to) ?? 0) + 1);
  const paidBuyers = buyers.filter((b) => b.paidAt !== undefined);
  const buyersWithout = paidBuyers.filter((b) => (perAddress.get(b.email) ?? 0) !== 1).length;
  const purchaseIds = new Set(orders.map((o) => `Purchase:${o.purchase_event_id}`));
  const metaProblems = exactlyOnceProblems(
    meta.eventsAtDoor().filter((a) => purchaseIds.has(a.identity)),
    [...purchaseIds],
  );
  // Each paid buyer's membership is granted once (its first change), and the members area told once.
  const grantIds = new Set(
    orders.map((o) => `${SIDE_EFFECTS.membershipWebhook}:${o.membership_id ?? `(no membership for order ${o.id})`}:1`),
  );
  const membersProblems = exactlyOnceProblems(
    members.deliveriesAtDoor().filter((a) => grantIds.has(a.identity)),
    [...grantIds],
  );
  const ledgerShort = orders.filter((o) => o.effects < ORDER_PAID_EFFECTS.length).length;
  const paidNotVerified = orders.length - paidBuyers.length;
  return {
    'paid orders': orders.length,
    'paid, not verified in time': paidNotVerified,
    receipts: [...perAddress.values()].reduce((a, b) => a + b, 0),
    'paid buyers ≠ 1 receipt': buyersWithout,
    'receipt problems': receiptProblems.length,
    'Meta Purchase problems': metaProblems.length,
    'members-area grant problems': membersProblems.length,
    'ledger short of an effect': ledgerShort,
    verdict:
      buyersWithout === 0 && receiptProblems.length === 0 && metaProblems.length === 0 && membersProblems.length === 0 && ledgerShort === 0
        ? 'ok'
        : `MISMATCH ${[...receiptProblems, ...metaProblems, ...membersProblems].slice(0, 3).join('; ')}`,
  };
}

interface SinkProcess {
  smtpUrl: string;
  inspectorUrl: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** The SMTP sink (tests/fakes) in a process of its own, so its CPU is read apart from this one's. */
async function startSmtpSink(life: Lifecycle, reachableFromContainers: boolean): Promise<SinkProcess> {
  const child = spawn(process.execPath, [join(repoRoot, 'dist', 'tests', 'bench', 'smtp-sink-process.js')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, SMTP_SINK_HOST: reachableFromContainers ? '0.0.0.0' : '127.0.0.1' },
  });
  const stop = life.own(
    'SMTP sink',
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the SMTP sink exited (${code}) before it listened`)));
  });
  const { smtpUrl, inspectorUrl } = JSON.parse(line) as { smtpUrl: string; inspectorUrl: string };
  return { smtpUrl, inspectorUrl, pid: child.pid, stop };
}

interface DatabaseWork {
  commits: number;
  outbox: Map<string, number>;
  /** The app's statements so far by pg_stat_statements' query id (the bench's own role left out); empty when not counted. */
  statements: Map<string, Statement>;
}

/** A statement's totals so far: calls, and milliseconds spent executing it (planning included, where tracked). */
interface Statement {
  calls: number;
  ms: number;
  query: string;
}

const TOP_STATEMENTS = 25;

const BENCH_METRICS_TOKEN = 'bench-launch-metrics-token-0123456789';

/** The API's refusals so far, by `class reason` (its funnel_http_shed_total series). */
async function shedCounts(url: string): Promise<Map<string, number>> {
  const res = await request(`${url}/api/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } });
  const text = await res.body.text();
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/^funnel_http_shed_total\{reason="([a-z_]+)",class="([a-z]+)"\} (\d+)$/gm))
    counts.set(`${match[2]} ${match[1]}`, Number(match[3]));
  return counts;
}

/** What each counter gained from `before` to `after`, those that did. */
function grownSince(before: Map<string, number>, after: Map<string, number>): Array<readonly [string, number]> {
  return [...after].map(([key, n]) => [key, n - (before.get(key) ?? 0)] as const).filter(([, n]) => n > 0);
}

function shedDifference(before: Map<string, number>, after: Map<string, number>): string {
  return (
    grownSince(before, after)
      .map(([key, n]) => `${key} ×${n}`)
      .join(', ') || '0'
  );
}

/** Commits so far in the bench's database, outbox rows so far by job name, and the app's statements so far. */
async function databaseWork(db: Client, countStatements: boolean): Promise<DatabaseWork> {
  const [{ rows: stat }, { rows: jobs }] = [
    await db.query<{ commits: string }>(`SELECT xact_commit::text AS commits FROM pg_stat_database WHERE datname = current_database()`),
    await db.query<{ job_name: string; n: number }>(`SELECT job_name, count(*)::int AS n FROM outbox GROUP BY job_name`),
  ];
  const statements = new Map<string, Statement>();
  if (countStatements) {
    const { rows } = await db.query<{ id: string; calls: string; ms: number; query: string }>(
      `SELECT queryid::text AS id, calls::text AS calls, (total_exec_time + total_plan_time)::float8 AS ms, query FROM pg_stat_statements s
        JOIN pg_roles r ON r.oid = s.userid
       WHERE r.rolname <> $1 AND s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [BENCH_ROLE],
    );
    for (const row of rows) statements.set(row.id, { calls: Number(row.calls), ms: row.ms, query: row.query });
  }
  return { commits: Number(stat[0].commits), outbox: new Map(jobs.map((j) => [j.job_name, j.n])), statements };
}

function statementDeltas(before: DatabaseWork, after: DatabaseWork): Statement[] {
  return [...after.statements]
    .map(([id, s]) => {
      const earlier = before.statements.get(id);
      return { calls: s.calls - (earlier?.calls ?? 0), ms: s.ms - (earlier?.ms ?? 0), query: s.query };
    })
    .filter((s) => s.calls > 0);
}

function workPerOrder(rate: number, paid: number, before: DatabaseWork, after: DatabaseWork): Row {
  const per = (n: number) => (paid ? (n / paid).toFixed(2) : null);
  const jobs = grownSince(before.outbox, after.outbox);
  return {
    'buyers/s': rate,
    'commits/order': per(after.commits - before.commits),
    ...(after.statements.size ? { 'statements/order': per(statementDeltas(before, after).reduce((sum, s) => sum + s.calls, 0)) } : {}),
    'jobs/order': per(jobs.reduce((sum, [, n]) => sum + n, 0)),
    'by job': jobs
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `${name} ${per(n)}`)
      .join(', '),
  };
}

/** The app's statements that took Postgres the most time over the rate, per paid order, as one line each. */
function statementsPerOrder(rate: number, paid: number, before: DatabaseWork, after: DatabaseWork): Row[] {
  if (!paid || !after.statements.size) return [];
  return statementDeltas(before, after)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, TOP_STATEMENTS)
    .map((s) => ({
      'buyers/s': rate,
      'per order': (s.calls / paid).toFixed(2),
      'ms per order': (s.ms / paid).toFixed(3),
      statement: s.query.replace(/\s+/g, ' ').trim().slice(0, 150),
    }));
}

/**
 * The compiled worker and API, as `startWorker` and `startApi` start them; with `profileDir`, under
 * `node --cpu-prof` (not allowed in NODE_OPTIONS), each writing its profile there as it stops.
 */
async function startApp(life: Lifecycle, env: NodeJS.ProcessEnv, profileDir: string | undefined) {
  if (!profileDir) {
    const worker = startWorker(life, env);
    return { worker, api: await startApi(life, env) };
  }
  const profiled = (name: string, main: string) => {
    const child = startProcess(name, process.execPath, ['--cpu-prof', '--cpu-prof-dir', profileDir, join(repoRoot, 'dist', main)], env);
    return { ...child, release: life.own(name, () => child.stop(60_000)) };
  };
  const worker = profiled('Worker', 'worker/src/main.js');
  const api = { ...profiled('API', 'backend/src/main.js'), url: `http://127.0.0.1:${env.PORT}` };
  await waitForHttp(`${api.url}/api/health`, api.child);
  return { worker, api };
}

/** Postgres's postmaster: the first line of postmaster.pid in its data folder. */
function postmasterPid(scratch: string): number | undefined {
  try {
    return Number(readFileSync(join(scratch, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
  } catch {
    return undefined;
  }
}

/** The redis-server serving the URL's port, found by its command line. */
function redisPid(redisUrl: string): number | undefined {
  const port = new URL(redisUrl).port;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // redis-server retitles itself "redis-server 127.0.0.1:<port>".
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (cmd.startsWith('redis-server') && (cmd.includes(`:${port}`) || cmd.split('\0').includes(port))) return Number(name);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}

const ms = (n: number | null): number | null => (n === null ? null : Math.round(n));
const sleep = (msecs: number) => new Promise((resolve) => setTimeout(resolve, msecs));
