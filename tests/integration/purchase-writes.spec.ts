import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { OFFERS, planOf } from '@contracts/plans';
import { PaymentEventHandler } from '../../worker/src/handlers/payment-event.handler';
import { sendSignedWebhook } from './support/payments';
import { outboxDrained, resetData, sleep, Stack, startStack, waitFor } from './support/stack';

/** The site's one-time plan; prices and names come from the site folder, so a seller's change keeps this green. */
const FULL_PAYMENT = planOf('full-payment');

/**
 * What one purchase costs the database where it repeats per event and per poll: the statements
 * the worker sends to apply a payment event, and those the API sends to answer a verification
 * poll of an unsettled order. Statements are counted at TypeORM's logger of each DataSource.
 */
let stack: Stack;
let counter = 0;
const WEBHOOK_SECRET = 'whsec_purchasewritessecret0000000';
const http = () => request(stack.url);
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** Statements sent while inside `watching.run(...)` (the handler's own, not the relay's or the reconciler's). */
const watching = new AsyncLocalStorage<string[]>();
/** Statements the API's DataSource sends, whoever asks. */
let apiSeen: string[] = [];

function tap(db: DataSource, onQuery: (sql: string) => void): void {
  const logQuery = db.logger.logQuery.bind(db.logger);
  db.logger.logQuery = (query, parameters, queryRunner) => {
    onQuery(oneLine(query));
    return logQuery(query, parameters, queryRunner);
  };
}

beforeAll(async () => {
  stack = await startStack({
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    // Every poll may read the provider: the poll under test does.
    VERIFY_REFRESH_MS: '100',
    SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  tap(stack.db, (sql) => apiSeen.push(sql));
  tap(stack.worker!.get(DataSource), (sql) => watching.getStore()?.push(sql));
});
afterAll(async () => {
  await stack?.stop();
});
beforeEach(async () => {
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects CASCADE');
});

async function paymentIntent(): Promise<{ clientSecret: string; id: string }> {
  const res = await http()
    .post('/api/create-payment-intent')
    .set('X-Forwarded-For', `10.7.0.${++counter % 250}`)
    .send({
      email: `writes-${counter}@example.com`,
      name: 'Jane Buyer',
      source: 'clear',
      plan: FULL_PAYMENT.name,
      amount: FULL_PAYMENT.amount,
    })
    .expect(200);
  return { clientSecret: res.body.clientSecret, id: res.body.clientSecret.split('_secret_')[0] };
}

/**
 * The provider tells of events again: for each, a copy of a stored `like` event under a new id, as
 * `type`, all stored in one statement for the worker to apply together. Returns the new ids.
 */
async function storeEventsLike(...events: { like: string; type?: string }[]): Promise<string[]> {
  const ids: string[] = [];
  const values: string[] = [];
  for (const { like, type = like } of events) {
    const [stored] = await stack.db.query(`SELECT payload FROM payment_events WHERE type = $1 LIMIT 1`, [like]);
    const id = `evt_${randomBytes(12).toString('hex')}`;
    ids.push(id);
    values.push(id, type, JSON.stringify({ ...stored.payload, id, type }));
  }
  const rows = events.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`).join(', ');
  await stack.db.query(`INSERT INTO payment_events (id, type, payload) VALUES ${rows}`, values);
  return ids;
}

/** The worker applies the events (stored together); its outcome, and every statement it sent doing so. */
async function applyWatched([eventId, ...moreEventIds]: string[]): Promise<{ outcome: unknown; statements: string[] }> {
  const statements: string[] = [];
  const outcome = await watching.run(statements, () =>
    stack.worker!.get(PaymentEventHandler).apply(moreEventIds.length ? { eventId, moreEventIds } : { eventId }),
  );
  return { outcome, statements };
}

/**
 * The worker's lock of the order holding a provider object in `column`, found by it in the same
 * statement, which also marks the events it applies applied.
 */
const lockFoundBy = (column: string) =>
  expect.stringMatching(
    new RegExp(
      `^WITH applied AS \\( UPDATE payment_events SET applied_at = now\\(\\) WHERE id = ANY\\(\\$3::text\\[\\]\\) AND applied_at IS NULL \\) ` +
        `SELECT id, kind, status, paid_at, .* FROM orders WHERE id = \\(SELECT id FROM \\(\\(SELECT id, 0 AS rank FROM orders WHERE ${column} = \\$1\\) .*\\) found\\) FOR UPDATE$`,
    ),
  );

/**
 * How the worker begins applying an event about a payment intent: the event, then in one
 * transaction its order found and locked, and the intent read from the provider.
 */
const INTENT_EVENT_LOCKED = [
  expect.stringMatching(/^SELECT id, type, payload, received_at, applied_at FROM payment_events WHERE id = ANY\(\$1::text\[\]\)$/),
  'START TRANSACTION',
  // The lock reads the row: its status, billing and provider ids, read no more after.
  lockFoundBy('payment_intent_id'),
];
const INTENT_EVENT_UNDER_LOCK = [
  ...INTENT_EVENT_LOCKED,
  // The provider's read of the intent (the sandbox's own table).
  expect.stringMatching(/FROM sandbox_objects/),
];

/** Waits until the API sends no statements of its own (200 ms without one), then starts `apiSeen` afresh. */
async function apiQuiet(): Promise<void> {
  await waitFor(async () => {
    apiSeen = [];
    await sleep(200);
    return apiSeen.length === 0;
  }, 'the API to send no statements of its own');
}

describe('statements per payment event', () => {
  it('applies an event about a paid charge in one transaction of one statement, finding and locking its order and marking the event applied, without asking the provider', async () => {
    const { clientSecret, id } = await paymentIntent();
    await http()
      .post('/api/sandbox/confirm-payment')
      .send({ clientSecret, card, returnUrl: `${stack.url}/success` })
      .expect(200);
    await waitFor(async () => (await stack.db.query(`SELECT status FROM orders`))[0].status === 'succeeded', 'the order paid');
    await outboxDrained(stack.db);
    // The provider tells of the paid intent again (a redelivery under a new id): nothing changes,
    // and the order, paid for good, has nothing to learn from a read of its charge.
    const { outcome, statements } = await applyWatched(await storeEventsLike({ like: 'payment_intent.succeeded' }));
    expect(outcome).toBe('skipped: order settled');
    expect(statements).toEqual([...INTENT_EVENT_LOCKED, 'COMMIT']);
    expect(statements.filter((sql) => sql.includes(id))).toEqual([]);
  });
});

describe('statements per paying event', () => {
  it('pays the order, owes its effects and grants the membership reading the order once, under its lock', async () => {
    const { id } = await paymentIntent();
    await outboxDrained(stack.db);
    // The provider has taken the payment; its event arrives (stored here, applied below).
    await stack.db.query(`UPDATE sandbox_objects SET status = 'succeeded' WHERE id = $1`, [id]);
    const { outcome, statements } = await applyWatched(
      await storeEventsLike({ like: 'payment_intent.created', type: 'payment_intent.succeeded' }),
    );
    expect(outcome).toBe('applied: succeeded');
    expect(statements).toEqual([
      ...INTENT_EVENT_UNDER_LOCK,
      // The new status and the first payment, in one statement.
      expect.stringMatching(/^WITH updated AS \( UPDATE orders SET status = \$2, .* INSERT INTO payments .* SELECT paid_at FROM updated$/),
      // The membership: locked, decided from the buyer's orders, granted.
      expect.stringMatching(/^SELECT m\.\*, o\.livemode AS order_livemode FROM memberships m .* WHERE m\.email_normalized = \$1 AND m\.product = \$2 FOR UPDATE OF m$/),
      expect.stringMatching(/^SELECT id, access, livemode FROM/),
      expect.stringMatching(/^INSERT INTO memberships /),
      // The order's paid effects and the membership's webhook, owed together.
      expect.stringMatching(/^INSERT INTO outbox /),
      'COMMIT',
    ]);
    // Owed in that transaction (the outbox was emptied before the test; the worker may have run them since).
    expect(await stack.db.query(`SELECT job_name FROM outbox WHERE job_name <> 'abandoned-checkout-email' ORDER BY job_name`)).toEqual([
      { job_name: 'membership-webhook' },
      { job_name: 'order-paid' },
    ]);
  });
});

describe('statements per subscription', () => {
  it("stores the new subscription's ids and state with its status in one transaction; its created event then changes nothing", async () => {
    const email = `writes-sub-${++counter}@example.com`;
    const ip = `10.7.1.${counter % 250}`;
    const setup = await http()
      .post('/api/create-setup-intent')
      .set('X-Forwarded-For', ip)
      .send({ email, name: 'Jane Buyer', source: 'clear' })
      .expect(200);
    const clientSecret: string = setup.body.clientSecret;
    await http()
      .post('/api/sandbox/confirm-setup')
      .send({ clientSecret, card, returnUrl: `${stack.url}/checkout` })
      .expect(200);
    await outboxDrained(stack.db);
    await apiQuiet();
    const body = {
      email,
      name: 'Jane Buyer',
      source: 'clear',
      setupIntentId: clientSecret.split('_secret_')[0],
      plan: OFFERS.default.name,
      amount: OFFERS.default.amount,
    };
    await http().post('/api/confirm-subscription').set('X-Forwarded-For', ip).send(body).expect(200);
    const fromLock = apiSeen.slice(apiSeen.findIndex((sql) => /FROM orders WHERE id = \$1 FOR UPDATE$/.test(sql)) - 1);
    expect(fromLock).toEqual([
      'START TRANSACTION',
      expect.stringMatching(/^SELECT id, kind, status, paid_at, .* FROM orders WHERE id = \$1 FOR UPDATE$/),
      expect.stringMatching(/^UPDATE orders SET subscription_id = \$2, customer_id = \$3, .*subscription_state = COALESCE/),
      expect.stringMatching(/^WITH updated AS \( UPDATE orders SET status = \$2, .* INSERT INTO payments /),
      expect.stringMatching(/^SELECT m\.\*, o\.livemode AS order_livemode FROM memberships m /),
      expect.stringMatching(/^SELECT id, access, livemode FROM/),
      expect.stringMatching(/^INSERT INTO memberships /),
      expect.stringMatching(/^INSERT INTO outbox /),
      'COMMIT',
    ]);
    expect(fromLock.filter((sql) => /^(WITH updated AS \( )?UPDATE orders/.test(sql))).toHaveLength(2);
    // Before the provider is asked, the buyer's membership of the plan is claimed in a short
    // transaction of its own (a second tab is refused, never charged): one statement more, once.
    expect(apiSeen.filter((sql) => /^UPDATE orders SET membership_claimed_at/.test(sql))).toHaveLength(1);

    await outboxDrained(stack.db);
    const { statements } = await applyWatched(await storeEventsLike({ like: 'customer.subscription.created' }));
    expect(statements.filter((sql) => /^(WITH updated AS \( )?UPDATE orders|memberships/.test(sql))).toEqual([]);

    // The subscription's created event and its first invoice's, stored together, are applied
    // together: one lock (finding the order), one read of the subscription, one transaction.
    const ids = await storeEventsLike({ like: 'customer.subscription.created' }, { like: 'invoice.paid' });
    const { outcome, statements: together } = await applyWatched(ids);
    expect(outcome).toBe('applied: active; applied: active');
    expect(together).toEqual([
      expect.stringMatching(/FROM payment_events WHERE id = ANY/),
      'START TRANSACTION',
      lockFoundBy('subscription_id'),
      // The subscription, read once for both events; then the invoice (a first invoice: the
      // order's own first payment), which the sandbox reads without a transaction of its own.
      expect.stringMatching(/FROM sandbox_objects/),
      expect.stringMatching(/FROM sandbox_objects/),
      expect.stringMatching(/FROM sandbox_objects/),
      'COMMIT',
    ]);
    expect(
      await stack.db.query(`SELECT count(*)::int AS n FROM payment_events WHERE id = ANY($1) AND applied_at IS NOT NULL`, [ids]),
    ).toEqual([{ n: 2 }]);
    expect((await stack.db.query(`SELECT status, subscription_state FROM orders`))[0]).toEqual({
      status: 'active',
      subscription_state: 'active',
    });
  });
});

describe('statements per verification poll', () => {
  it('answers a poll of an unsettled order from its row, and the refresh claim, its lock and one provider read in one transaction', async () => {
    const { id } = await paymentIntent();
    await outboxDrained(stack.db);
    await apiQuiet();
    const res = await http().get(`/api/verify-payment/${id}`).expect(200);
    expect(res.body.status).toBe('requires_payment_method');
    expect(apiSeen).toEqual([
      expect.stringMatching(/^SELECT .* FROM orders WHERE payment_intent_id = \$1$/),
      'START TRANSACTION',
      // The claim's UPDATE takes the row lock and reads the row as the lock would.
      expect.stringMatching(/^UPDATE orders SET last_refreshed_at = now\(\) WHERE id = \$1 .* RETURNING id, kind, status, paid_at, /),
      expect.stringMatching(/FROM sandbox_objects/),
      'COMMIT',
    ]);
  });
});

describe('statements per intent', () => {
  it('creates the order with its known customer, then the sandbox intent and its created event in one transaction', async () => {
    await apiQuiet();
    await paymentIntent();
    expect(apiSeen).toEqual([
      // The order, with the buyer's customer from an earlier order if there is one.
      expect.stringMatching(/^INSERT INTO orders .*customer_id\).*\(SELECT customer_id FROM orders WHERE email_normalized = \$6 /),
      'START TRANSACTION',
      // The intent stored and read back, with its order's plan, in the one statement.
      expect.stringMatching(
        /^WITH s AS \( INSERT INTO sandbox_objects .* RETURNING \* \) SELECT s\.id, .* FROM s JOIN orders o ON o\.id = s\.order_id$/,
      ),
      // Its created event stored (applied: there is nothing to apply), owing nothing, in one statement.
      expect.stringMatching(/^WITH input AS \( .* INSERT INTO payment_events .* INSERT INTO outbox .* FROM owing WHERE ids IS NOT NULL$/),
      'COMMIT',
      expect.stringMatching(/^UPDATE orders SET payment_intent_id = \$2, customer_id = \$3/),
    ]);
  });
});

describe('statements per sandbox confirmation', () => {
  it("stores the card's events and owes their application in the statement that stores them", async () => {
    const { clientSecret, id } = await paymentIntent();
    await outboxDrained(stack.db);
    await apiQuiet();
    await http()
      .post('/api/sandbox/confirm-payment')
      .send({ clientSecret, card, returnUrl: `${stack.url}/success` })
      .expect(200);
    const emits = apiSeen.filter((sql) => /INSERT INTO payment_events/.test(sql));
    expect(emits).toEqual([expect.stringMatching(/^WITH input AS \( .* INSERT INTO payment_events .* INSERT INTO outbox /)]);
    expect(apiSeen.filter((sql) => /^INSERT INTO outbox/.test(sql))).toEqual([]);
    // One job applies the intent's events stored by the confirmation, in order.
    const stored: Array<{ id: string }> = await stack.db.query(
      `SELECT id FROM payment_events WHERE payload -> 'data' -> 'object' ->> 'id' = $1 AND type <> 'payment_intent.created' ORDER BY received_at, id`,
      [id],
    );
    expect(stored.length).toBeGreaterThan(0);
    const [job] = await stack.db.query(`SELECT payload FROM outbox WHERE job_name = 'payment-event' ORDER BY created_at DESC LIMIT 1`);
    const applied = [job.payload.eventId, ...(job.payload.moreEventIds ?? [])];
    expect([...applied].sort()).toEqual(stored.map((e) => e.id).sort());
  });
});

describe('statements per webhook delivery', () => {
  it('stores a delivered event and owes its application in one statement; a redelivery owes nothing', async () => {
    const { id } = await paymentIntent();
    await outboxDrained(stack.db);
    const [created] = await stack.db.query(`SELECT payload FROM payment_events WHERE type = 'payment_intent.created'`);
    const event = { ...created.payload, id: `evt_${randomBytes(12).toString('hex')}`, type: 'payment_intent.succeeded' };
    await apiQuiet();
    expect((await sendSignedWebhook(stack.url, WEBHOOK_SECRET, event)).body).toEqual({ received: true, duplicate: false });
    expect(apiSeen).toEqual([
      expect.stringMatching(
        /^WITH stored AS \( INSERT INTO payment_events .* ON CONFLICT \(id\) DO NOTHING RETURNING id \) INSERT INTO outbox .* FROM stored/,
      ),
    ]);
    const owed = () =>
      stack.db.query(`SELECT payload FROM outbox WHERE job_name = 'payment-event' AND payload ->> 'eventId' = $1`, [event.id]);
    expect(await owed()).toEqual([{ payload: { eventId: event.id } }]);

    apiSeen = [];
    expect((await sendSignedWebhook(stack.url, WEBHOOK_SECRET, event)).body).toEqual({ received: true, duplicate: true });
    expect(apiSeen).toHaveLength(1);
    expect(await owed()).toHaveLength(1);
    expect(id).toMatch(/^pi_/);
  });
});
