import { Queue } from 'bullmq';
import { redisOptionsFromUrl } from '@core/queue/redis-options';
import { JOB_QUEUE, JobName, QUEUES } from '@contracts/jobs';
import { planOf } from '@contracts/plans';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { FakeStripeServer } from '../fakes/stripe-server';
import { adminCreate } from '../integration/support/admin';
import { ApiProcess, AppProcess, FaultStack } from './support/fault-stack';
import { getJson, Outcome, postJson, callsWithoutClaim, signupTally, waitFor } from './support/traffic';

/** The one-time plan these checkouts buy, from the site folder. */
const FULL_PAYMENT = planOf('full-payment');

/**
 * Scale-out on the engines the product already has: two API instances and two workers over one
 * Postgres and one Redis, as behind a load balancer (TRUST_PROXY=loopback, the client's address in
 * X-Forwarded-For). Whatever instance a request reaches, the outcome is the one a single instance
 * would give: one lead, one signup, one dispatch per outbox row, one allowance per client, one
 * session, one provider read.
 */
const WRITES_PER_WINDOW = 5;
const ADMIN = { email: 'scale.admin@example.com', password: 'a long enough admin password' };

const affiliate = new FakeAffiliateServer();
const stripe = new FakeStripeServer();
let stack: FaultStack;
let apis: [ApiProcess, ApiProcess];
let workers: AppProcess[];

/** The i-th request goes to instance i mod 2, as a round-robin balancer would send it. */
const api = (i: number): string => apis[i % 2].url;
const from = (client: string) => ({ 'x-forwarded-for': client });

beforeAll(async () => {
  stack = await FaultStack.start('multi');
  await affiliate.start();
  stack.life.own('Fake affiliate service', () => affiliate.stop());
  await stripe.start();
  stack.life.own('Fake Stripe', () => stripe.stop());
  const env = await stack.env({
    TRUST_PROXY: 'loopback',
    RATE_LIMIT_WRITES: String(WRITES_PER_WINDOW),
    RATE_LIMIT_WINDOW_MS: '600000',
    AFFILIATE_API_URL: affiliate.url,
    AFFILIATE_API_KEY: 'scale-key',
    STRIPE_SECRET_KEY: 'sk_test_fakekey',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fakekey',
    STRIPE_WEBHOOK_SECRET: 'whsec_stripetestsecret000000000000',
    STRIPE_API_HOST: '127.0.0.1',
    STRIPE_API_PORT: String(stripe.port),
    STRIPE_API_PROTOCOL: 'http',
    // Long enough that every concurrent poll of the test falls inside one refresh window.
    VERIFY_REFRESH_MS: '60000',
  });
  // Same settings and token key everywhere, as one deployment's replicas have; only the port differs.
  const sibling = await stack.sibling(env);
  apis = await Promise.all([stack.startApi(env, 'API 1'), stack.startApi(sibling, 'API 2')]);
  workers = [stack.startWorker(env, 'Worker 1'), stack.startWorker(sibling, 'Worker 2')];
});

afterAll(() => stack?.undoAll());

it('stores each lead posted alternately to both APIs once, and both workers sign each up exactly once', async () => {
  const emails = Array.from({ length: 60 }, (_, i) => `scale-${i}@example.com`);
  // Each lead from its own client address: the write limit is not what this test is about.
  const outcomes = await Promise.all(
    emails.map((email, i) =>
      postJson(`${api(i)}/api/leads`, { email, name: 'Scale Lead', referral: 'partner7' }, { headers: from(`198.51.100.${i + 1}`) }),
    ),
  );
  expect(outcomes.map((o) => o.status)).toEqual(emails.map(() => 201));

  const leads = (await stack.db.query(`SELECT id, email, submission_count FROM leads WHERE email = ANY($1::text[])`, [emails])).rows;
  expect(leads.map((l: { email: string }) => l.email).sort()).toEqual([...emails].sort());
  expect(leads.filter((l: { submission_count: number }) => l.submission_count !== 1)).toEqual([]);
  const submissions = (await stack.db.query(`SELECT count(*)::int AS n FROM lead_submissions`)).rows[0].n;
  expect(submissions).toBe(emails.length);

  await waitFor(
    async () => (await stack.db.query(`SELECT count(*)::int AS n FROM outbox WHERE completed_at IS NULL`)).rows[0].n === 0,
    'every owed job done',
    45_000,
    250,
  );
  // Every row is done, and a relay leases only rows that are not: nothing more can be sent.
  const outbox = (await stack.db.query(`SELECT job_name, dispatch_count FROM outbox`)).rows as Array<{
    job_name: JobName;
    dispatch_count: number;
  }>;
  expect(outbox.length).toBeGreaterThanOrEqual(emails.length);
  expect(outbox.filter((row) => row.dispatch_count !== 1)).toEqual([]);

  const tally = signupTally(affiliate);
  expect(affiliate.signups()).toHaveLength(emails.length);
  expect(leads.filter((lead: { id: string }) => tally.get(lead.id)?.ok !== 1)).toEqual([]);
  // Every signup request the fake saw was a first one: no relay or worker sent a row twice.
  expect(exactlyOnceProblems(affiliate.signupsAtDoor(), emails)).toEqual([]);
  expect(await callsWithoutClaim(affiliate, stack.db)).toEqual([]);
  expect(affiliate.signupAttempts()).toHaveLength(emails.length);
  // Both workers were there all along (one alone would prove nothing about two relays).
  expect(workers.map((w) => w.child.exitCode ?? w.child.signalCode)).toEqual([null, null]);

  const queue = new Queue(QUEUES.tracking, { connection: redisOptionsFromUrl(stack.redisUrl) });
  try {
    const counts = await queue.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed');
    const tracked = outbox.filter((row) => row.job_name === 'affiliate-signup').length;
    expect(tracked).toBe(emails.length);
    expect(counts).toMatchObject({ failed: 0, waiting: 0, active: 0, delayed: 0 });
    expect(counts.completed).toBe(outbox.filter((row) => JOB_QUEUE[row.job_name] === QUEUES.tracking).length);
  } finally {
    await queue.close();
  }
});

it('shares the write limit: a client switching instances gets it once in total, with the readable 429', async () => {
  const outcomes: Outcome[] = [];
  for (let i = 0; i < 2 * WRITES_PER_WINDOW; i++) {
    outcomes.push(await postJson(`${api(i)}/api/leads`, { email: `switcher-${i}@example.com` }, { headers: from('203.0.113.50') }));
  }
  expect(outcomes.map((o) => o.status)).toEqual([...Array(WRITES_PER_WINDOW).fill(201), ...Array(WRITES_PER_WINDOW).fill(429)]);
  expect(outcomes[WRITES_PER_WINDOW].body).toMatchObject({
    statusCode: 429,
    error: 'Too Many Requests',
    message: 'Too many requests from this device. Please wait a minute and try again.',
  });
  // Another client is unaffected on either instance.
  expect((await postJson(`${api(0)}/api/leads`, { email: 'bystander@example.com' }, { headers: from('203.0.113.51') })).status).toBe(201);
});

it('accepts an admin session opened on one instance on the other, and a sign-out on either ends it', async () => {
  const created = await adminCreate(ADMIN.email, ADMIN.password, { ...process.env, DATABASE_URL: stack.databaseUrl });
  expect(created).toMatchObject({ code: 0 });
  const login = await fetch(`${api(0)}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...from('192.0.2.10') },
    body: JSON.stringify(ADMIN),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.getSetCookie()[0].split(';')[0];
  const { csrfToken } = (await login.json()) as { csrfToken: string };

  const onOther = await fetch(`${api(1)}/api/admin/session`, { headers: { cookie } });
  expect(onOther.status).toBe(200);
  expect(await onOther.json()).toMatchObject({ email: ADMIN.email, csrfToken });

  const logout = await fetch(`${api(1)}/api/admin/logout`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrfToken } });
  expect(logout.status).toBe(204);
  expect((await fetch(`${api(0)}/api/admin/session`, { headers: { cookie } })).status).toBe(401);
});

it('keeps the provider read for verification single-flight across instances', async () => {
  stripe.paymentIntentStatus = 'processing';
  const created = await postJson(
    `${api(0)}/api/create-payment-intent`,
    { email: 'scale.buyer@example.com', name: 'Scale Buyer', source: 'clear', plan: FULL_PAYMENT.name, amount: FULL_PAYMENT.amount },
    { headers: from('192.0.2.20') },
  );
  expect(created.status).toBe(200);
  const paymentIntentId = 'pi_fake000000000000000001';
  stripe.requests.length = 0;

  const poll = (i: number) => getJson(`${api(i)}/api/verify-payment/${paymentIntentId}`);
  const reads = () => stripe.calls().filter((call) => call.startsWith('GET /v1/payment_intents/'));
  const polls = await Promise.all(Array.from({ length: 16 }, (_, i) => poll(i)));
  expect(polls.map((p) => p.status)).toEqual(polls.map(() => 200));
  // A poll that lost the claim answers from Postgres at once: the status before the read, or after it.
  expect(polls.filter((p) => !['requires_payment_method', 'processing'].includes((p.body as { status: string }).status))).toEqual([]);
  expect(reads()).toEqual([`GET /v1/payment_intents/${paymentIntentId}`]);
  // What the one read learned is what both instances answer with afterwards, without reading again.
  for (const i of [0, 1]) expect(((await poll(i)).body as { status: string }).status).toBe('processing');
  expect(reads()).toHaveLength(1);
});

it('keeps taking leads while Redis is away, each instance then limiting on its own', async () => {
  await stack.killRedis();
  try {
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 2 * WRITES_PER_WINDOW + 2; i++) {
      outcomes.push(await postJson(`${api(i)}/api/leads`, { email: `outage-${i}@example.com` }, { headers: from('203.0.113.60') }));
    }
    // Fail open per instance, not wide open: each counts the client's requests in its own memory.
    const accepted = (instance: number) => outcomes.filter((o, i) => i % 2 === instance && o.status === 201).length;
    expect([accepted(0), accepted(1)]).toEqual([WRITES_PER_WINDOW, WRITES_PER_WINDOW]);
    expect(outcomes.filter((o) => o.status !== 201 && o.status !== 429)).toEqual([]);
    const health = await getJson(`${api(1)}/api/health`);
    expect(health.body).toMatchObject({ status: 'degraded', redis: 'down' });
  } finally {
    await stack.startRedis();
  }
});
