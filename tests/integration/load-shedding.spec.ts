import { connect, type Socket } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { planOf } from '@contracts/plans';
import { BUSY_MESSAGE } from '../../backend/src/common/load-shedding/load-shedding.service';
import { CHECKOUT_ROUTES, MONEY_ROUTES } from '../../backend/src/common/load-shedding/route-classes';
import { resetData, Stack, startStack, waitFor } from './support/stack';

/** The one-time plan these checkouts buy, from the site folder. */
const FULL_PAYMENT = planOf('full-payment');

/**
 * A saturated API answers at once with a readable 503 and Retry-After instead of keeping the
 * buyer waiting for a pool timeout, and refuses leads and new checkouts before payments under
 * way. The API's pool has 4 connections, 2 of them kept for the money path; the test makes
 * requests hold connections by locking the tables they write (from its own connection), so the
 * pool is busy for real.
 */
const METRICS_TOKEN = 'load-shedding-spec-metrics-token-0123456789';
const RETRY_AFTER_S = '3';
/** The old answer came after the pool's 5 s (and, for leads, again per member: ~11 s); this is a bound, not a benchmark. */
const PROMPTLY_MS = 2000;

let stack: Stack;
let ipCounter = 0;
/** Each call from its own client address (TRUST_PROXY is on), so no per-client limit takes part. */
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const http = () => request(stack.url);

async function timed(call: request.Test): Promise<{ res: request.Response; ms: number }> {
  const started = Date.now();
  const res = await call;
  return { res, ms: Date.now() - started };
}

const lead = (email: string) => http().post('/api/leads').set('X-Forwarded-For', freshIp()).send({ email, name: 'Rush Lead' });
const verify = (id: string) => http().get(`/api/verify-payment/${id}`);
const paymentIntent = (email: string) =>
  http()
    .post('/api/create-payment-intent')
    .set('X-Forwarded-For', freshIp())
    .send({ email, name: 'Rush Buyer', source: 'clear', plan: FULL_PAYMENT.name, amount: FULL_PAYMENT.amount });

/**
 * Checkouts started but not paid, by payment intent id: polling one writes its order's read stamp.
 * One after the other: checkouts side by side would queue for the pool, which refuses a new
 * checkout at once here (SHED_CHECKOUT_MAX_POOL_WAITING is 1).
 */
async function unpaidIntents(...emails: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const email of emails) {
    const { clientSecret } = (await paymentIntent(email).expect(200)).body as { clientSecret: string };
    ids.push(clientSecret.split('_secret_')[0]);
  }
  return ids;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The readable "busy" answer: 503, Retry-After, the API's error body. */
function expectBusy(res: { status: number; headers: Record<string, string>; body: unknown }): void {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe(RETRY_AFTER_S);
  expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', message: BUSY_MESSAGE, requestId: expect.any(String) });
}

/** A connection of the test's own, outside the API's pool. */
async function pgClient(): Promise<Client> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  return client;
}

/** Holds `tables` locked against writes (reads go on) until the returned function is called. */
async function lockWrites(...tables: string[]): Promise<() => Promise<void>> {
  const locker = await pgClient();
  await locker.query('BEGIN');
  await locker.query(`LOCK TABLE ${tables.join(', ')} IN SHARE MODE`);
  return async () => {
    await locker.query('ROLLBACK');
    await locker.end();
  };
}

let observer: Client;
/** Waits until `count` of the API's connections are stuck waiting for the test's locks. */
async function connectionsBlocked(count: number): Promise<void> {
  await waitFor(async () => {
    const { rows } = await observer.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    return rows[0].n === count;
  }, `${count} API connections waiting on the test's lock`);
}

/**
 * Leads that take the shared connections one after the other, each left waiting on the test's
 * lock of `leads` (their requests are added to `held`, which starts empty).
 */
async function holdSharedWithLeads(held: Array<Promise<request.Response>>, ...emails: string[]): Promise<void> {
  for (const email of emails) {
    held.push(lead(email).then());
    await connectionsBlocked(held.length);
  }
}

/** One sample of /api/metrics by its series (name and labels as printed), 0 when absent. */
async function metric(series: string): Promise<number> {
  const text = (await http().get('/api/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ').pop()) : 0;
}

const shedCount = (reason: string, klass: string) => metric(`funnel_http_shed_total{reason="${reason}",class="${klass}"}`);

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A connected socket, so that a request written on it is in the kernel before the test blocks the loop. */
function openSocket(): Promise<Socket> {
  const { hostname, port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes one HTTP/1.1 request on `socket` now (synchronously to the kernel) and reads its answer. */
function writeRequest(socket: Socket, method: string, path: string, body?: object): Promise<RawAnswer> {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${new URL(stack.url).host}`,
    `X-Forwarded-For: ${freshIp()}`,
    'Connection: close',
    ...(body === undefined ? [] : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(payload)}`]),
  ];
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headText, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...headerLines] = headText.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const raw = rest.join('\r\n\r\n');
      // Fastify answers these with Content-Length (no chunking): the rest is the JSON body.
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: raw ? (JSON.parse(raw) as unknown) : undefined });
    });
  });
  socket.write(`${head.join('\r\n')}\r\n\r\n${payload}`);
  return answer;
}

/** Keeps this process (the API's event loop included) busy for `ms`, as a CPU-bound stall would. */
function blockEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin: nothing else in this process runs meanwhile
  }
}

let paidIntentId: string;

beforeAll(async () => {
  stack = await startStack(
    {
      STRIPE_SECRET_KEY: '',
      TRUST_PROXY: 'true',
      RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
      RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
      METRICS_TOKEN,
      DATABASE_POOL_SIZE: '4',
      SHED_MONEY_RESERVED_CONNECTIONS: '2',
      SHED_WAIT_MS: '200',
      SHED_CHECKOUT_MAX_POOL_WAITING: '1',
      DATABASE_ACQUIRE_TIMEOUT_MS: '700',
      SHED_RETRY_AFTER_S: RETRY_AFTER_S,
      SHED_EVENT_LOOP_DELAY_MS: '400',
      // The money path is never refused for the loop here: the test shows leads go first.
      SHED_MONEY_EVENT_LOOP_DELAY_MS: '60000',
    },
    { worker: false },
  );
  observer = await pgClient();
  await resetData(stack.db);
  const intent = await paymentIntent('paid.before@example.com').expect(200);
  const { clientSecret } = intent.body as { clientSecret: string };
  paidIntentId = clientSecret.split('_secret_')[0];
  await http()
    .post('/api/sandbox/confirm-payment')
    .send({
      clientSecret,
      card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' },
      returnUrl: `${stack.url}/success?plan=full-payment`,
    })
    .expect(200);
  expect((await verify(paidIntentId).expect(200)).body.status).toBe('succeeded');
});

afterAll(async () => {
  await observer?.end();
  await stack?.stop();
});

describe('shedding load when the pool is busy', () => {
  it('answers leads 503 "busy" at once when the shared connections are taken, while verification still gets a reserved one', async () => {
    const sharedBefore = await shedCount('shared_connections', 'standard');
    const unlock = await lockWrites('leads');
    const held: Array<Promise<request.Response>> = [];
    try {
      // Two leads in two batches take the two shared connections and wait on the lock.
      await holdSharedWithLeads(held, 'held.one@example.com', 'held.two@example.com');

      const refused = await Promise.all([1, 2, 3, 4].map((i) => timed(lead(`refused.${i}@example.com`))));
      for (const { res, ms } of refused) {
        expectBusy(res);
        expect(ms).toBeLessThan(PROMPTLY_MS);
      }

      const polled = await timed(verify(paidIntentId));
      expect(polled.res.status).toBe(200);
      expect(polled.res.body.status).toBe('succeeded');
      expect(polled.ms).toBeLessThan(PROMPTLY_MS);
    } finally {
      await unlock();
    }
    expect((await Promise.all(held)).map((res) => res.status)).toEqual([201, 201]);
    expect(await shedCount('shared_connections', 'standard')).toBe(sharedBefore + 4);
    expect(await metric('funnel_db_pool_shared_connections{state="limit"}')).toBe(2);
  });

  it("refuses a new checkout at once while the pool's line is SHED_CHECKOUT_MAX_POOL_WAITING long, and a purchase under way still joins it", async () => {
    const before = await shedCount('pool_queue', 'checkout');
    const unpaid = await unpaidIntents('line.buyer.1@example.com', 'line.buyer.2@example.com', 'line.buyer.3@example.com');
    const unlock = await lockWrites('leads', 'orders');
    const held: Array<Promise<request.Response>> = [];
    const line: { joined?: Promise<{ res: request.Response; ms: number }> } = {};
    try {
      await holdSharedWithLeads(held, 'held.five@example.com', 'held.six@example.com');
      held.push(verify(unpaid[0]).then());
      held.push(verify(unpaid[1]).then());
      await connectionsBlocked(4);
      // Every connection is taken: the next poll waits in the pool's own line, which is then one long.
      line.joined = timed(verify(unpaid[2]));
      await sleep(150);

      const refused = await timed(paymentIntent('turned.away@example.com'));
      expectBusy(refused.res);
      expect(refused.ms).toBeLessThan(PROMPTLY_MS);
    } finally {
      await unlock();
    }
    expect((await Promise.all(held)).map((res) => res.status)).toEqual([201, 201, 200, 200]);
    // The poll that joined the line was served once the connections came back (within its wait).
    expect((await line.joined)?.res.status).toBe(200);
    expect(await shedCount('pool_queue', 'checkout')).toBe(before + 1);
    const { rows } = await observer.query(`SELECT 1 FROM orders WHERE email_normalized = 'turned.away@example.com'`);
    expect(rows).toEqual([]);
    // With the line gone, a checkout is taken again.
    expect((await paymentIntent('taken.after@example.com')).status).toBe(200);
  });

  it('answers the money path 503 "busy" after DATABASE_ACQUIRE_TIMEOUT_MS when even its reserved connections are taken', async () => {
    const timeoutsBefore = await shedCount('pool_timeout', 'money');
    const unpaid = await unpaidIntents('held.buyer.1@example.com', 'held.buyer.2@example.com');
    const unlock = await lockWrites('leads', 'orders');
    const held: Array<Promise<request.Response>> = [];
    try {
      await holdSharedWithLeads(held, 'held.three@example.com', 'held.four@example.com');
      // Two verification polls take the reserved connections, waiting on the orders lock.
      held.push(verify(unpaid[0]).then());
      held.push(verify(unpaid[1]).then());
      await connectionsBlocked(4);

      const polled = await timed(verify(paidIntentId));
      expectBusy(polled.res);
      expect(polled.ms).toBeLessThan(PROMPTLY_MS);
    } finally {
      await unlock();
    }
    expect((await Promise.all(held)).map((res) => res.status)).toEqual([201, 201, 200, 200]);
    expect(await shedCount('pool_timeout', 'money')).toBe(timeoutsBefore + 1);
    // Nothing stays taken: the next poll is answered as usual.
    expect((await verify(paidIntentId).expect(200)).body.status).toBe('succeeded');
  });
});

describe("the sandbox's own connections", () => {
  it('reads the provider for polls holding every connection of the pool: none waits for a second one', async () => {
    // Each poll holds its order's row lock (and a connection of the pool) while it reads the
    // provider. With the sandbox's reads kept waiting, four polls hold all four connections: the
    // reads must be waiting on connections of the sandbox's own, not in the pool's line behind
    // the polls themselves (where they waited until every poll timed out).
    const unpaid = await unpaidIntents(...[1, 2, 3, 4].map((i) => `many.polls.${i}@example.com`));
    const locker = await pgClient();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE sandbox_objects IN ACCESS EXCLUSIVE MODE');
    let polls: Promise<Array<{ res: request.Response; ms: number }>>;
    try {
      polls = Promise.all(unpaid.map((id) => timed(verify(id))));
      await connectionsBlocked(4);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    for (const { res } of await polls) {
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('requires_payment_method');
    }
  });
});

describe('shedding load when the event loop is behind', () => {
  it('refuses a lead and a new checkout read after a long stall at once, and still answers the money path', async () => {
    const before = await shedCount('event_loop', 'standard');
    const checkoutsBefore = await shedCount('event_loop', 'checkout');
    const [leadSocket, checkoutSocket, verifySocket] = await Promise.all([openSocket(), openSocket(), openSocket()]);
    const leadAnswer = writeRequest(leadSocket, 'POST', '/api/leads', { email: 'stalled@example.com' });
    const checkoutAnswer = writeRequest(checkoutSocket, 'POST', '/api/create-payment-intent', {
      email: 'stalled.buyer@example.com',
      name: 'Stalled Buyer',
      source: 'clear',
      plan: FULL_PAYMENT.name,
      amount: FULL_PAYMENT.amount,
    });
    const verifyAnswer = writeRequest(verifySocket, 'GET', `/api/verify-payment/${paidIntentId}`);
    blockEventLoop(1000);
    const [refused, refusedCheckout, polled] = await Promise.all([leadAnswer, checkoutAnswer, verifyAnswer]);
    expectBusy(refused);
    expectBusy(refusedCheckout);
    expect(polled.status).toBe(200);
    expect(await shedCount('event_loop', 'standard')).toBe(before + 1);
    expect(await shedCount('event_loop', 'checkout')).toBe(checkoutsBefore + 1);
    // Once the loop has caught up, leads are taken again.
    await waitFor(async () => (await lead('after.stall@example.com')).status === 201, 'a lead taken after the stall', 5000);
    const { rows } = await observer.query(`SELECT 1 FROM leads WHERE email_normalized = 'stalled@example.com'`);
    expect(rows).toEqual([]);
  });
});

describe('route classes', () => {
  it('names only routes the API serves as the money path or a checkout', () => {
    const fastify = stack.api!.getHttpAdapter().getInstance();
    const missing = [...MONEY_ROUTES, ...CHECKOUT_ROUTES].filter((route) => {
      const [method, url] = route.split(' ');
      return !fastify.hasRoute({ method, url });
    });
    expect(missing).toEqual([]);
  });
});
