import autocannon from 'autocannon';
import { Client } from 'pg';
import type { Lifecycle } from '../../scripts/lib/lifecycle';
import { step } from '../../scripts/lib/log';
import { freePort } from '../../scripts/lib/ports';
import { startApi, startWorker } from '../../scripts/lib/stack';
import { seedDemoTestimonials } from '../../scripts/seed-demo';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { startBenchStack } from './bench-stack';
import { referenceLeadWrites, type WriteFigures } from './db-reference.bench';
import { residentMemoryMiB } from './process-memory';
import { BenchReport, ratio, type Row } from './report';

type EndpointKey = 'leads' | 'invitation-gate' | 'testimonials' | 'verify';

interface Endpoint {
  label: string;
  path: string;
  /** POST body for a fresh e-mail; GET when absent. */
  body?: (email: string) => object;
  /** What this endpoint's e-mails start with in the endpoint table's runs. */
  prefix?: string;
}

/** Each run's leads carry their own e-mail prefix, so its rows and affiliate calls can be told apart. */
const ONE_API_PREFIX = 'bench-lead-one-';
const TWO_APIS_PREFIX = 'bench-lead-two-';
const PER_LEAD_REFERENCE_PREFIX = 'bench-ref-one-';
const BATCHED_REFERENCE_PREFIX = 'bench-ref-batch-';

const BASELINE: Endpoint = { label: 'GET /api/health/live (baseline)', path: '/api/health/live' };

const endpoints = (paymentId: string): Record<EndpointKey, Endpoint> => ({
  leads: {
    label: 'POST /api/leads',
    path: '/api/leads',
    prefix: 'bench-lead-m-',
    body: (email) => ({ email, name: 'Bench', referral: 'partner7' }),
  },
  'invitation-gate': {
    label: 'POST /api/invitation-gate',
    path: '/api/invitation-gate',
    prefix: 'bench-invite-m-',
    body: (email) => ({ name: 'Bench Invitee', email, referral: 'partner7' }),
  },
  testimonials: { label: 'GET /api/testimonials/featured', path: '/api/testimonials/featured' },
  verify: { label: 'GET /api/verify-payment/{id} (settled)', path: `/api/verify-payment/${paymentId}` },
});

interface Load {
  result: autocannon.Result;
  /** E-mails the API answered 2xx for. */
  accepted: string[];
}

interface Memory {
  api: number | null;
  worker: number | null;
}

/**
 * `npm run bench api`: the API under autocannon load at 1, 16 and 64 connections (BENCH_CONNECTIONS),
 * each endpoint as a ratio of the liveness route through the same Nest stack; resident memory of
 * the API and the worker; whether every accepted lead was stored and delivered to the affiliate
 * fake exactly once; leads/s with one API process and with two; and the database reference:
 * the same lead write straight through node-pg, per lead and batched.
 *
 * `only` narrows the run to some endpoints (the baseline always runs); the lead checks, the
 * scale-out comparison and the database reference run whenever `leads` is among them, unless
 * `leadChecks` is false (the gate's run has the lead endpoint only to compare with).
 */
export async function benchApi(life: Lifecycle, only?: EndpointKey[], { leadChecks = true } = {}): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const levels = (process.env.BENCH_CONNECTIONS ?? '1,16,64').split(',').map(Number);
  const top = Math.max(...levels);
  const drainTimeoutMs = Number(process.env.BENCH_DRAIN_TIMEOUT_SECONDS ?? 300) * 1000;
  const report = new BenchReport(only ? `api-${only.join('-')}` : 'api');

  const stack = await startBenchStack(life, 'bench-api');
  const { data, affiliate, env, db } = stack;
  await seedDemoTestimonials(data.databaseUrl);
  const worker = startWorker(life, env);
  const api = await startApi(life, env);
  let secondApi: Awaited<ReturnType<typeof startApi>> | null = null;
  try {
    const memory = (): Memory => ({ api: residentMemoryMiB(api.child.pid), worker: residentMemoryMiB(worker.child.pid) });
    // Let the worker finish booting before its resting memory is read.
    await sleep(3000);
    const rest = memory();

    const all = endpoints(await settledPayment(api.url));
    const chosen = (Object.keys(all) as EndpointKey[]).filter((key) => !only || only.includes(key));
    const rows: Row[] = [];
    const baseline = new Map<number, number>();
    const acceptedLeads: string[] = [];
    const acceptedInvitations: string[] = [];
    let leadsAtTop: autocannon.Result | null = null;
    let gateAtTop: autocannon.Result | null = null;
    for (const endpoint of [BASELINE, ...chosen.map((key) => all[key])]) {
      step(`${endpoint.label}: warming up, then ${seconds} s at each of ${levels.join(', ')} connections`);
      const warmUp = await load(api.url, endpoint, Math.min(2, seconds), 16);
      if (endpoint === all.leads) acceptedLeads.push(...warmUp.accepted);
      if (endpoint === all['invitation-gate']) acceptedInvitations.push(...warmUp.accepted);
      for (const connections of levels) {
        const { result, accepted } = await load(api.url, endpoint, seconds, connections);
        if (endpoint === BASELINE) baseline.set(connections, result.requests.average);
        if (endpoint === all.leads) {
          acceptedLeads.push(...accepted);
          if (connections === top) leadsAtTop = result;
        }
        if (endpoint === all['invitation-gate']) {
          acceptedInvitations.push(...accepted);
          if (connections === top) gateAtTop = result;
        }
        rows.push({
          endpoint: endpoint.label,
          connections,
          ...figures(result),
          '× baseline': ratio(result.requests.average, baseline.get(connections)),
        });
      }
    }
    const loaded = memory();
    report.table(
      `API under load (autocannon, ${seconds} s per row, after a warm-up; API, worker, Postgres, Redis and the load generator share this machine)`,
      rows,
      '× baseline: req/s as a multiple of the liveness route at the same connections (Nest, Fastify and the network with no work).',
      'errors: connection errors and timeouts; non-2xx: answers other than 2xx (a rate limit would show here).',
    );

    if (gateAtTop) {
      report.table(
        `POST /api/invitation-gate beside POST /api/leads at ${top} connections (same run)`,
        gateBesideLeads(gateAtTop, leadsAtTop),
        `Target for the gate: ≥ ${GATE_TARGET.perSecond} req/s, p99 ≤ ${GATE_TARGET.p99Ms} ms, zero errors and non-2xx: ${
          gateMeetsTarget(gateAtTop) ? 'met' : 'not met'
        }.`,
      );
      report.table('Accepted invitation-gate submissions: stored, one invitation e-mail owed each', [
        await checkInvitations(db, all['invitation-gate'].prefix!, acceptedInvitations),
      ]);
    }

    if (!leadsAtTop || !leadChecks) {
      report.table('Resident memory (VmRSS, MiB)', memoryRows(rest, loaded, null));
      return;
    }

    step('Waiting for the worker to deliver every stored lead to the affiliate fake');
    const verdicts = [await checkDeliveries(db, affiliate, 'API under load', all.leads.prefix!, acceptedLeads, drainTimeoutMs)];
    const drained = memory();
    report.table('Resident memory (VmRSS, MiB)', memoryRows(rest, loaded, drained));

    // Each run starts with the previous one's jobs delivered, so the worker's backlog does not tilt the comparison.
    step(`POST /api/leads at ${top} connections: one API process, then two over the same data`);
    const one = await load(api.url, all.leads, seconds, top, ONE_API_PREFIX);
    verdicts.push(await checkDeliveries(db, affiliate, 'one API process', ONE_API_PREFIX, one.accepted, drainTimeoutMs));
    const port = await freePort();
    secondApi = await startApi(life, { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }, 'API 2');
    const halves = await Promise.all([
      load(api.url, all.leads, seconds, Math.ceil(top / 2), TWO_APIS_PREFIX),
      load(secondApi.url, all.leads, seconds, Math.floor(top / 2), TWO_APIS_PREFIX),
    ]);
    verdicts.push(
      await checkDeliveries(
        db,
        affiliate,
        'two API processes',
        TWO_APIS_PREFIX,
        halves.flatMap((h) => h.accepted),
        drainTimeoutMs,
      ),
    );
    const oneRate = one.result.requests.average;
    const twoRate = halves.reduce((sum, h) => sum + h.result.requests.average, 0);
    report.table(
      `POST /api/leads: one API process vs two on this machine (${top} connections in all, ${seconds} s each, one worker)`,
      [
        {
          setup: 'one API process',
          connections: top,
          'leads/s': round(oneRate),
          'p99 ms': one.result.latency.p99,
          errors: errorsOf(one.result),
          '× one': '1.00×',
        },
        {
          setup: 'two API processes',
          connections: `${Math.ceil(top / 2)} + ${Math.floor(top / 2)}`,
          'leads/s': round(twoRate),
          'p99 ms': Math.max(...halves.map((h) => h.result.latency.p99)),
          errors: halves.reduce((sum, h) => sum + errorsOf(h.result), 0),
          '× one': ratio(twoRate, oneRate),
        },
      ],
      'Two processes: leads/s summed over both, p99 the larger of the two. All share the same cores with the worker, Postgres, Redis and the load generator.',
    );
    report.table('Accepted leads: stored, and delivered to the affiliate fake exactly once', verdicts);

    await secondApi.release();
    await api.release();
    await worker.release();
    step(`Database reference: the API's lead write through node-pg, ${top} clients, ${seconds} s each, API and worker stopped`);
    const perLead = await referenceLeadWrites(data.databaseUrl, {
      clients: top,
      seconds,
      batched: false,
      prefix: PER_LEAD_REFERENCE_PREFIX,
    });
    const batched = await referenceLeadWrites(data.databaseUrl, { clients: top, seconds, batched: true, prefix: BATCHED_REFERENCE_PREFIX });
    report.table(
      `Lead write straight through node-pg (${top} concurrent clients, no HTTP): lead + submission + outbox row in one transaction`,
      [
        {
          mode: 'one transaction per lead',
          ...referenceFigures(perLead),
          'leads/tx': await leadsPerTransaction(db, PER_LEAD_REFERENCE_PREFIX),
        },
        {
          mode: 'batched like the API (LeadBatchWriter)',
          ...referenceFigures(batched),
          'leads/tx': await leadsPerTransaction(db, BATCHED_REFERENCE_PREFIX),
        },
      ],
      'leads/tx: leads stored per committed transaction (rows sharing an xmin), the batch size actually reached.',
    );
    const apiRate = leadsAtTop.requests.average;
    const met = apiRate >= 0.6 * batched.perSecond && leadsAtTop.latency.p99 <= 100 && errorsOf(leadsAtTop) === 0;
    report.table(
      `POST /api/leads at ${top} connections against the database reference`,
      [
        {
          'POST /api/leads req/s': round(apiRate),
          'p99 ms': leadsAtTop.latency.p99,
          errors: errorsOf(leadsAtTop),
          'leads/tx': await leadsPerTransaction(db, ONE_API_PREFIX),
          '× per-lead reference': ratio(apiRate, perLead.perSecond),
          '× batched reference': ratio(apiRate, batched.perSecond),
        },
      ],
      `leads/tx from the one-API-process run at ${top} connections.`,
      `Target: ≥ 0.60× the batched reference, p99 ≤ 100 ms, zero errors and non-2xx: ${met ? 'met' : 'not met'}.`,
    );
  } finally {
    await secondApi?.release();
    await api.release();
    await worker.release();
    await stack.stop();
  }
}

/** What issue 20 asks of the gate at the top connection count. */
const GATE_TARGET = { perSecond: 1500, p99Ms: 100 };

const gateMeetsTarget = (gate: autocannon.Result): boolean =>
  gate.requests.average >= GATE_TARGET.perSecond && gate.latency.p99 <= GATE_TARGET.p99Ms && errorsOf(gate) === 0;

function gateBesideLeads(gate: autocannon.Result, leads: autocannon.Result | null): Row[] {
  const row = (endpoint: string, result: autocannon.Result): Row => ({
    endpoint,
    'req/s': round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    errors: errorsOf(result),
    '× leads': leads ? ratio(result.requests.average, leads.requests.average) : null,
  });
  return [...(leads ? [row('POST /api/leads', leads)] : []), row('POST /api/invitation-gate', gate)];
}

/**
 * Every submission the gate answered 2xx for made its invitation (each had a fresh address), and
 * each invitation owes exactly one invitation e-mail in the outbox; and how many submissions
 * each committed transaction stored (rows sharing an xmin), the batch size actually reached.
 */
async function checkInvitations(db: Client, prefix: string, accepted: string[]): Promise<Row> {
  const { rows } = await db.query<{ email: string; owed: number }>(
    `SELECT i.email, count(o.id)::int AS owed
       FROM invitations i
       LEFT JOIN outbox o ON o.job_name = 'invitation-email' AND o.payload->>'invitationId' = i.id::text
      WHERE i.email LIKE $1
      GROUP BY i.email`,
    [`${prefix}%`],
  );
  const stored = new Map(rows.map((r) => [r.email, r.owed]));
  const lost = accepted.filter((email) => !stored.has(email)).length;
  const unowed = rows.filter((r) => r.owed === 0).length;
  const owedTwice = rows.filter((r) => r.owed > 1).length;
  // Submission rows are never updated, so their xmin is the transaction that wrote them.
  const { rows: written } = await db.query<{ submissions: number; transactions: number }>(
    `SELECT count(*)::int AS submissions, count(DISTINCT s.xmin::text)::int AS transactions
       FROM invitation_submissions s JOIN invitations i ON i.id = s.invitation_id WHERE i.email LIKE $1`,
    [`${prefix}%`],
  );
  return {
    accepted: accepted.length,
    stored: stored.size,
    'accepted, not stored': lost,
    'no e-mail owed': unowed,
    'owed twice': owedTwice,
    'submissions/tx': written[0].transactions ? (written[0].submissions / written[0].transactions).toFixed(1) : null,
    verdict: lost === 0 && unowed === 0 && owedTwice === 0 ? 'ok' : 'MISMATCH',
  };
}

function figures(result: autocannon.Result): Row {
  return {
    'req/s': round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'max ms': result.latency.max,
    errors: result.errors,
    'non-2xx': result.non2xx,
  };
}

const errorsOf = (result: autocannon.Result): number => result.errors + result.non2xx;

function referenceFigures(f: WriteFigures): Row {
  return { 'writes/s': round(f.perSecond), 'p50 ms': decimal(f.p50), 'p99 ms': decimal(f.p99), errors: f.errors };
}

function memoryRows(rest: Memory, loaded: Memory, drained: Memory | null): Row[] {
  const row = (which: keyof Memory, name: string): Row => ({
    process: name,
    'at rest': decimal(rest[which]),
    'after the load': decimal(loaded[which]),
    ...(drained ? { 'after the drain': decimal(drained[which]) } : {}),
  });
  return [row('api', 'API'), row('worker', 'worker')];
}

let nextEmail = 0;

/** Load on one endpoint; POSTs carry a fresh e-mail each, and those answered 2xx are returned. */
function load(baseUrl: string, endpoint: Endpoint, seconds: number, connections: number, prefix = endpoint.prefix): Promise<Load> {
  const accepted: string[] = [];
  const { body } = endpoint;
  const requests: autocannon.Request[] | undefined = body
    ? [
        {
          // One request in flight per connection, so the context a response reaches is its request's.
          setupRequest: (request, context) => {
            const email = `${prefix}${process.pid}-${nextEmail++}@example.com`;
            (context as { email?: string }).email = email;
            return { ...request, body: JSON.stringify(body(email)) };
          },
          onResponse: (status, _body, context) => {
            if (status >= 200 && status < 300) accepted.push((context as { email: string }).email);
          },
        },
      ]
    : undefined;
  return new Promise((resolvePromise, reject) => {
    autocannon(
      {
        url: `${baseUrl}${endpoint.path}`,
        method: body ? 'POST' : 'GET',
        duration: seconds,
        connections,
        headers: body ? { 'content-type': 'application/json' } : undefined,
        requests,
      },
      (err: Error | null, result) => (err ? reject(err) : resolvePromise({ result, accepted })),
    );
  });
}

/**
 * Waits (up to `timeoutMs`) until every stored lead under `prefix` has reached the affiliate fake,
 * then checks that every lead the API answered 2xx for is stored, that every stored lead
 * (including ones still in flight when the load stopped) has its attribution job done — one
 * affiliate call — and that no lead got two.
 */
async function checkDeliveries(
  db: Client,
  affiliate: FakeAffiliateServer,
  phase: string,
  prefix: string,
  accepted: string[],
  timeoutMs: number,
): Promise<Row> {
  const started = Date.now();
  const callsPerLead = () => {
    const calls = new Map<string, number>();
    for (const { params } of affiliate.signups()) {
      if (params.email?.startsWith(prefix)) calls.set(params.email, (calls.get(params.email) ?? 0) + 1);
    }
    return calls;
  };
  const storedLeads = async () =>
    new Set((await db.query<{ email: string }>(`SELECT email FROM leads WHERE email LIKE $1`, [`${prefix}%`])).rows.map((r) => r.email));
  let stored = await storedLeads();
  let calls = callsPerLead();
  while (calls.size < stored.size && Date.now() - started < timeoutMs) {
    await sleep(500);
    stored = await storedLeads();
    calls = callsPerLead();
  }
  const waited = (Date.now() - started) / 1000;
  const lost = accepted.filter((email) => !stored.has(email)).length;
  const undelivered = [...stored].filter((email) => !calls.has(email)).length;
  const duplicated = [...calls.values()].filter((n) => n > 1).length;
  return {
    phase,
    accepted: accepted.length,
    stored: stored.size,
    delivered: calls.size,
    'accepted, not stored': lost,
    'stored, no job done': undelivered,
    'delivered twice': duplicated,
    'waited s': `${waited.toFixed(1)}${calls.size < stored.size ? ' (timed out)' : ''}`,
    verdict: lost === 0 && undelivered === 0 && duplicated === 0 ? 'ok' : 'MISMATCH',
  };
}

/** Leads stored per committed transaction: rows one transaction inserted share its xmin. */
async function leadsPerTransaction(db: Client, prefix: string): Promise<string | null> {
  const { rows } = await db.query<{ leads: number; transactions: number }>(
    `SELECT count(*)::int AS leads, count(DISTINCT xmin::text)::int AS transactions FROM leads WHERE email LIKE $1`,
    [`${prefix}%`],
  );
  return rows[0].transactions ? (rows[0].leads / rows[0].transactions).toFixed(1) : null;
}

/** A one-time sandbox payment with the success card, waited on until verification says succeeded. */
async function settledPayment(baseUrl: string): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
  const { clientSecret } = (await post('/api/create-payment-intent', {
    email: 'bench-buyer@example.com',
    name: 'Bench Buyer',
    source: 'clear',
    plan: 'Full Payment',
    amount: 997,
  })) as { clientSecret: string };
  const year = new Date().getFullYear() + 2;
  await post('/api/sandbox/confirm-payment', {
    clientSecret,
    card: { number: '4242424242424242', expMonth: 12, expYear: year, cvc: '123' },
    returnUrl: `${baseUrl}/success`,
  });
  const id = clientSecret.split('_secret_')[0];
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${baseUrl}/api/verify-payment/${id}`);
    if (res.ok && ((await res.json()) as { status: string }).status === 'succeeded') return id;
    await sleep(100);
  }
  throw new Error('The sandbox payment did not settle within 10 s');
}

const round = (n: number): number => Math.round(n);
const decimal = (n: number | null): string | null => (n === null ? null : n.toFixed(1));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
