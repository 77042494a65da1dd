import { PAYMENT_GATEWAY, PaymentGateway, type SubscriptionState } from '@core/payments/payment-gateway';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { PaymentEventHandler } from '../../worker/src/handlers/payment-event.handler';
import { PaymentsCarryProviderIds1766966400000 } from '@core/database/migrations/1766966400000-payments-carry-provider-ids';
import { PaymentMetrics } from '@core/metrics/payment-metrics';
import request from 'supertest';
import { doorSummary, onceEach } from '../fakes/exactly-once';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { FakeGa4MpServer } from '../fakes/ga4-mp-server';
import { FakeMetaCapiServer } from '../fakes/meta-capi-server';
import { SmtpSink } from '../fakes/smtp-sink';
import { sendSignedWebhook } from './support/payments';
import { clientAddresses, outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

/** The site's one-time plan; prices and names come from the site folder, so a seller's change keeps this green. */
const FULL_PAYMENT = planOf('full-payment');

/**
 * Sandbox payments through the real worker: the sandbox's events are stored with their
 * `payment-event` jobs, applied by the worker (signed redeliveries are duplicates), and the paid
 * side effects of `order-paid` reach the loopback fakes exactly once.
 */
const SECRET = 'whsec_sandboxworkersecret00000000';
const META_TOKEN = 'meta-test-token';
const card = (number: string) => ({ number, expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' });
const COOKIES = '_ga=GA1.1.1234567890.1700000000; _fbp=fb.1.1700000000.42; _fbc=fb.1.1700000000.click';
const USER_AGENT = 'Mozilla/5.0 (Test) PaymentsWorkerSpec';

const affiliate = new FakeAffiliateServer();
const meta = new FakeMetaCapiServer({ accessToken: META_TOKEN });
const ga4 = new FakeGa4MpServer();
const smtp = new SmtpSink();
let stack: Stack;
let counter = 0;
const nextClient = clientAddresses(9);
let buyer = '';

const http = () => request(stack.url);
const post = (path: string, body: object) =>
  http().post(path).set('X-Forwarded-For', nextClient()).set('Cookie', COOKIES).set('User-Agent', USER_AGENT).send(body);

/** Checkout's confirm-subscription for the buyer's standard membership, its card saved by `setupIntentId`. */
const confirmStandard = (setupIntentId: string) =>
  post('/api/confirm-subscription', {
    email: buyer,
    name: 'Jane Buyer',
    source: 'clear',
    setupIntentId,
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  });

/**
 * Sandbox orders are test orders: their sales never reach the affiliate service, Meta or GA4. To
 * follow a real sale through the worker, the sandbox drives the payment and the buyer's orders are
 * recorded as live, as checkout records them with a Stripe live key (PaymentGateway.livemode).
 */
const recordAsLive = () => stack.db.query(`UPDATE orders SET livemode = true WHERE email = $1`, [buyer]);

async function payOneTime(live = true): Promise<string> {
  const res = await post('/api/create-payment-intent', {
    email: buyer,
    name: 'Jane Buyer',
    source: 'clear',
    referral: 'partner7',
    plan: FULL_PAYMENT.name,
    amount: FULL_PAYMENT.amount,
  }).expect(200);
  if (live) await recordAsLive();
  const clientSecret: string = res.body.clientSecret;
  const confirmed = await post('/api/sandbox/confirm-payment', {
    clientSecret,
    card: card('4242424242424242'),
    returnUrl: `${stack.url}/success`,
  }).expect(200);
  expect(confirmed.body.intent.status).toBe('succeeded');
  return clientSecret.split('_secret_')[0];
}

const order = async () => (await stack.db.query(`SELECT id, status, purchase_event_id, paid_effects FROM orders`))[0];
/**
 * What each fake saw, counted at its door: every request, whatever it was answered, grouped by
 * the effect it carries (sale event id, Meta event id, GA4 transaction id, Message-ID).
 */
const counts = () => ({
  sales: doorSummary(affiliate.salesAtDoor()),
  meta: doorSummary(meta.eventsAtDoor()),
  ga4: doorSummary(ga4.eventsAtDoor()),
  mails: doorSummary(smtp.deliveriesAtDoor()),
});
const ONE_EACH = { sales: onceEach(1), meta: onceEach(1), ga4: onceEach(1), mails: onceEach(1) };
const ALL_SENT = { 'affiliate-sale': 'sent', 'meta-purchase': 'sent', 'ga4-purchase': 'sent', 'receipt-email': 'sent' };

async function settled(paidStatus: string): Promise<void> {
  await waitFor(async () => (await order())?.status === paidStatus, `order ${paidStatus}`);
  await waitFor(async () => Object.keys((await order()).paid_effects).length === 4, 'four paid effects recorded');
}

async function startFakes(): Promise<Record<string, string>> {
  return {
    AFFILIATE_API_URL: await affiliate.start(),
    AFFILIATE_API_KEY: 'affiliate-key',
    META_CAPI_URL: await meta.start(),
    GA4_MP_URL: await ga4.start(),
    SMTP_URL: await smtp.start(),
  };
}

async function stopAll(): Promise<void> {
  await stack?.stop();
  await Promise.all([affiliate.stop(), meta.stop(), ga4.stop(), smtp.stop()]);
}

async function reset(): Promise<void> {
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects CASCADE');
  affiliate.reset();
  meta.reset();
  ga4.reset();
  smtp.reset();
  buyer = `worker-buyer-${++counter}@example.com`;
}

const stackEnv = (fakes: Record<string, string>, integrations: Record<string, string>) => ({
  ...fakes,
  ...integrations,
  SANDBOX_WEBHOOK_SECRET: SECRET,
  STRIPE_SECRET_KEY: '',
  TRUST_PROXY: 'true',
  RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
  RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
  // Polls answer from Postgres: the payment must reach the order through the webhook path.
  VERIFY_REFRESH_MS: '600000',
  JOB_RETRY_HORIZON_S: '120',
});

describe('payments through the worker, every integration configured', () => {
  beforeAll(async () => {
    const fakes = await startFakes();
    stack = await startStack(
      stackEnv(fakes, {
        META_PIXEL_ID: '1234567890',
        META_CAPI_ACCESS_TOKEN: META_TOKEN,
        GA4_MEASUREMENT_ID: 'G-WORKER1',
        GA4_API_SECRET: 'ga4-secret',
      }),
    );
  });
  afterAll(stopAll);
  beforeEach(reset);

  it('4242: the sandbox event is applied to the order, and each side effect happens once', async () => {
    const paymentId = await payOneTime();
    await settled('succeeded');

    const [applied] = await stack.db.query(`SELECT applied_at FROM payment_events WHERE type = 'payment_intent.succeeded'`);
    expect(applied.applied_at).toBeTruthy();
    const paid = await order();
    expect(paid.paid_effects).toEqual(ALL_SENT);
    expect(counts()).toEqual(ONE_EACH);

    expect(affiliate.sales()[0].params).toMatchObject({
      email: buyer,
      amount: String(toMinorUnits(FULL_PAYMENT.amount, CURRENCY)),
      event_id: paymentId,
      plan: 'full-payment',
      ref_id: 'partner7',
    });
    const [metaEvent] = meta.events();
    expect(metaEvent.pixelId).toBe('1234567890');
    expect(metaEvent.event).toMatchObject({
      event_name: 'Purchase',
      event_id: paid.purchase_event_id,
      user_data: { fbp: 'fb.1.1700000000.42', fbc: 'fb.1.1700000000.click', client_user_agent: USER_AGENT },
      custom_data: { currency: CURRENCY, value: FULL_PAYMENT.amount, content_name: FULL_PAYMENT.name },
    });
    expect(JSON.stringify(metaEvent)).not.toContain(buyer);
    const [ga4Event] = ga4.events();
    expect(ga4Event).toMatchObject({
      measurementId: 'G-WORKER1',
      clientId: '1234567890.1700000000',
      event: { name: 'purchase', params: { transaction_id: paymentId, value: FULL_PAYMENT.amount, currency: CURRENCY } },
    });
    const [mail] = smtp.messages;
    expect(mail.envelope.to).toEqual([buyer]);
    expect(mail.text).toContain(formatMoney(toMinorUnits(FULL_PAYMENT.amount, CURRENCY), CURRENCY, { decimals: 'always' }));
    expect(mail.html).toContain(formatMoney(toMinorUnits(FULL_PAYMENT.amount, CURRENCY), CURRENCY, { decimals: 'always' }));
    expect(mail.messageId).toContain(`receipt-email.${paid.id}@`);

    // Ten success-page polls and the same webhook delivered twice more change nothing.
    for (let i = 0; i < 10; i++) expect((await http().get(`/api/verify-payment/${paymentId}`).expect(200)).body.status).toBe('succeeded');
    const [stored] = await stack.db.query(`SELECT payload FROM payment_events WHERE type = 'payment_intent.succeeded'`);
    for (let i = 0; i < 2; i++)
      expect((await sendSignedWebhook(stack.url, SECRET, stored.payload)).body).toEqual({ received: true, duplicate: true });
    await outboxDrained(stack.db);
    expect(counts()).toEqual(ONE_EACH);
    expect(await stack.db.query(`SELECT id FROM outbox WHERE job_name = 'order-paid'`)).toHaveLength(1);
    expect(await stack.db.query(`SELECT key FROM side_effects WHERE status = 'done' ORDER BY key`)).toHaveLength(4);
  });

  it('standard subscription: setup, confirm-subscription, active, each side effect once after polls and replays', async () => {
    const setup = await post('/api/create-setup-intent', {
      email: buyer,
      name: 'Jane Buyer',
      source: 'clear',
      referral: 'partner7',
    }).expect(200);
    await recordAsLive();
    const clientSecret: string = setup.body.clientSecret;
    await post('/api/sandbox/confirm-setup', {
      clientSecret,
      card: card('4242424242424242'),
      returnUrl: `${stack.url}/checkout?plan=standard`,
    }).expect(200);
    const setupIntentId = clientSecret.split('_secret_')[0];
    const { subscriptionId } = (await confirmStandard(setupIntentId).expect(200)).body;
    await settled('active');
    // Every sandbox event of the subscription went through the webhook and was applied.
    await waitFor(
      async () => (await stack.db.query(`SELECT id FROM payment_events WHERE applied_at IS NOT NULL`)).length === 4,
      'four events applied',
    );
    expect((await order()).paid_effects).toEqual(ALL_SENT);
    expect(counts()).toEqual(ONE_EACH);
    expect(affiliate.sales()[0].params).toMatchObject({
      amount: String(toMinorUnits(OFFERS.default.amount, CURRENCY)),
      event_id: subscriptionId,
      plan: 'standard',
    });
    expect(ga4.events()[0].event.params).toMatchObject({ transaction_id: subscriptionId, value: OFFERS.default.amount });

    for (let i = 0; i < 10; i++)
      expect((await http().get(`/api/verify-subscription/${subscriptionId}`).expect(200)).body.status).toBe('active');
    const [invoice] = await stack.db.query(`SELECT payload FROM payment_events WHERE type = 'invoice.paid'`);
    for (let i = 0; i < 2; i++) await sendSignedWebhook(stack.url, SECRET, invoice.payload);
    await confirmStandard(setupIntentId).expect(200);
    await outboxDrained(stack.db);
    expect(counts()).toEqual(ONE_EACH);
  });

  it('verifies and stores a webhook event over the general body limit (the webhook route has its own)', async () => {
    await payOneTime();
    await settled('succeeded');
    const [succeeded] = await stack.db.query(`SELECT payload FROM payment_events WHERE type = 'payment_intent.succeeded'`);
    const object = succeeded.payload.data.object;
    // 40 KB is over BODY_LIMIT_BYTES (16 KB) and within the sandbox's webhook limit (64 KiB;
    // Stripe's events, which carry whole objects, get WEBHOOK_BODY_LIMIT_BYTES, 1 MiB).
    const large = {
      ...succeeded.payload,
      id: 'evt_largewebhookbody00000001',
      data: { object: { ...object, metadata: { ...object.metadata, notes: 'n'.repeat(40_000) } } },
    };
    try {
      expect((await sendSignedWebhook(stack.url, SECRET, large)).body).toEqual({ received: true, duplicate: false });
      expect(await stack.db.query(`SELECT id FROM payment_events WHERE id = $1`, [large.id])).toHaveLength(1);
      await outboxDrained(stack.db);
      expect(counts()).toEqual(ONE_EACH);
    } finally {
      await stack.db.query(`DELETE FROM payment_events WHERE id = $1`, [large.id]);
    }
  });

  it('lock, then read, then write: a slower, earlier read of the subscription never commits after a later one', async () => {
    const setup = await post('/api/create-setup-intent', { email: buyer, name: 'Jane Buyer', source: 'clear' }).expect(200);
    await recordAsLive();
    const clientSecret: string = setup.body.clientSecret;
    await post('/api/sandbox/confirm-setup', { clientSecret, card: card('4242424242424242'), returnUrl: `${stack.url}/checkout` }).expect(
      200,
    );
    await confirmStandard(clientSecret.split('_secret_')[0]).expect(200);
    await settled('active');
    await outboxDrained(stack.db);

    // Two more events about the subscription, stored and not yet applied.
    const [known] = await stack.db.query(`SELECT type, payload FROM payment_events WHERE type LIKE 'customer.subscription.%' LIMIT 1`);
    for (const id of ['evt_lockrace00000000000001', 'evt_lockrace00000000000002'])
      await stack.db.query(`INSERT INTO payment_events (id, type, payload) VALUES ($1, $2, $3)`, [
        id,
        known.type,
        { ...known.payload, id },
      ]);

    // The provider's answers over time: the first read is slow and says past_due (a card retry in
    // progress); by the time a second read asks, the subscription is active again.
    const gateway = stack.worker!.get<PaymentGateway>(PAYMENT_GATEWAY);
    const answers: Array<() => Promise<SubscriptionState>> = [
      () => new Promise((resolve) => setTimeout(() => resolve('past_due'), 400)),
      () => Promise.resolve('active'),
    ];
    const read = jest.spyOn(gateway, 'readSubscription').mockImplementation(() => answers.shift()!());
    const handler = stack.worker!.get(PaymentEventHandler);
    try {
      const outcomes = await Promise.all([
        handler.apply({ eventId: 'evt_lockrace00000000000001' }),
        new Promise((resolve) => setTimeout(resolve, 50)).then(() => handler.apply({ eventId: 'evt_lockrace00000000000002' })),
      ]);
      expect(outcomes).toEqual(['applied: past_due', 'applied: active']);
      expect(read).toHaveBeenCalledTimes(2);
    } finally {
      read.mockRestore();
    }
    // The later read is the provider's state now: it must be the one that stands.
    expect((await order()).status).toBe('active');
  });

  it("a charge's event applied before the request stored the charge's id: payment 1 carries the charge's id", async () => {
    const res = await post('/api/create-payment-intent', {
      email: buyer,
      name: 'Jane Buyer',
      source: 'clear',
      plan: FULL_PAYMENT.name,
      amount: FULL_PAYMENT.amount,
    }).expect(200);
    await recordAsLive();
    const clientSecret: string = res.body.clientSecret;
    const chargeId = clientSecret.split('_secret_')[0];
    // The request that created the charge has not stored its id yet (a one-click charge, or a
    // slow API): the order is found through the charge's metadata.
    await stack.db.query(`UPDATE orders SET payment_intent_id = NULL WHERE email = $1`, [buyer]);
    await post('/api/sandbox/confirm-payment', { clientSecret, card: card('4242424242424242'), returnUrl: `${stack.url}/success` }).expect(
      200,
    );
    await settled('succeeded');
    const [paid] = await stack.db.query(
      `SELECT o.id, o.payment_intent_id, p.provider_payment_id FROM orders o JOIN payments p ON p.order_id = o.id WHERE o.email = $1`,
      [buyer],
    );
    expect(paid).toEqual({ id: paid.id, payment_intent_id: chargeId, provider_payment_id: chargeId });
    // Our own id is never a provider's: the database refuses it outright.
    await expect(stack.db.query(`UPDATE payments SET provider_payment_id = order_id::text WHERE order_id = $1`, [paid.id])).rejects.toThrow(
      /payments_provider_id_not_ours/,
    );
  });

  it("the migration gives a first payment recorded under its order's id the charge's id the order holds", async () => {
    const chargeId = await payOneTime();
    await settled('succeeded');
    const migration = new PaymentsCarryProviderIds1766966400000();
    const runner = stack.db.createQueryRunner();
    try {
      await migration.down(runner);
      // As the defect left it: the event was applied first, the request stored the id after.
      await runner.query(`UPDATE payments SET provider_payment_id = order_id::text`);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await stack.db.query(`SELECT provider_payment_id FROM payments`)).toEqual([{ provider_payment_id: chargeId }]);
    await expect(stack.db.query(`UPDATE payments SET provider_payment_id = order_id::text`)).rejects.toThrow(
      /payments_provider_id_not_ours/,
    );
  });

  it("a worker's boot repairs a first payment its order holds no id for by asking the sandbox, and reports one it has nothing for", async () => {
    const chargeId = await payOneTime();
    await settled('succeeded');
    const { id: orderId } = await order();
    const migration = new PaymentsCarryProviderIds1766966400000();
    const runner = stack.db.createQueryRunner();
    try {
      await migration.down(runner);
      // As a legacy database holds it: recorded under the order's id, the order holding no charge id,
      // so the migration could not repair it and left its check NOT VALID (enforced for new rows only).
      await runner.query(`UPDATE payments SET provider_payment_id = order_id::text`);
      await runner.query(`UPDATE orders SET payment_intent_id = NULL`);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await stack.db.query(`SELECT convalidated FROM pg_constraint WHERE conname = 'payments_provider_id_not_ours'`)).toEqual([
      { convalidated: false },
    ]);
    const providerIds = async () => stack.db.query(`SELECT provider_payment_id FROM payments`);
    const unrepaired = async () =>
      (await stack.worker!.get(PaymentMetrics).registry.getSingleMetric('funnel_payments_without_provider_id')!.get()).values[0]?.value;
    const reboot = async () => {
      await stack.stopWorker();
      await stack.startWorker();
      await waitFor(async () => (await stack.db.query(`SELECT 1 FROM outbox WHERE job_name = 'repair-payment-ids'`)).length > 0, 'owed');
      await outboxDrained(stack.db);
    };

    // The sandbox holds no paid charge for the order: the payment is left, logged by id and counted.
    await stack.db.query(`UPDATE sandbox_objects SET status = 'canceled' WHERE object = 'payment_intent'`);
    await reboot();
    expect(await providerIds()).toEqual([{ provider_payment_id: orderId }]);
    expect(await unrepaired()).toBe(1);
    expect(
      await stack.db.query(`SELECT completed_at IS NOT NULL AS done, last_error FROM outbox WHERE job_name = 'repair-payment-ids'`),
    ).toEqual([{ done: true, last_error: null }]);

    // Its charge found at the next boot: the payment and the order carry the charge's id.
    await stack.db.query(`UPDATE sandbox_objects SET status = 'succeeded' WHERE object = 'payment_intent'`);
    await stack.db.query(`DELETE FROM outbox WHERE job_name = 'repair-payment-ids'`);
    await reboot();
    expect(await providerIds()).toEqual([{ provider_payment_id: chargeId }]);
    expect(await stack.db.query(`SELECT payment_intent_id FROM orders`)).toEqual([{ payment_intent_id: chargeId }]);
    expect(await unrepaired()).toBe(0);

    // Nothing left: a later boot owes no pass.
    await stack.db.query(`DELETE FROM outbox WHERE job_name = 'repair-payment-ids'`);
    await stack.stopWorker();
    await stack.startWorker();
    await outboxDrained(stack.db);
    expect(await stack.db.query(`SELECT 1 FROM outbox WHERE job_name = 'repair-payment-ids'`)).toEqual([]);
  });

  it("a membership's first payment whose bank check failed gives up its claim: another tab's checkout goes ahead", async () => {
    const setup = async () => {
      const res = await post('/api/create-setup-intent', { email: buyer, name: 'Jane Buyer', source: 'clear' }).expect(200);
      const clientSecret: string = res.body.clientSecret;
      return { clientSecret, id: clientSecret.split('_secret_')[0] };
    };
    const confirmSetup = (clientSecret: string, number: string) =>
      post('/api/sandbox/confirm-setup', { clientSecret, card: card(number), returnUrl: `${stack.url}/checkout` }).expect(200);
    const authenticate = (clientSecret: string, outcome: 'complete' | 'fail') =>
      http()
        .post('/api/sandbox/authenticate')
        .type('form')
        .send({ client_secret: clientSecret, return_url: `${stack.url}/checkout`, outcome })
        .expect(303);
    const waiting = await setup();
    await confirmSetup(waiting.clientSecret, '4000002760003184');
    await authenticate(waiting.clientSecret, 'complete');
    const other = await setup();
    await confirmSetup(other.clientSecret, '4242424242424242');
    const pending: string = (await confirmStandard(waiting.id).expect(200)).body.clientSecret;
    expect((await confirmStandard(other.id).expect(409)).body.message).toMatch(/waiting for your bank's confirmation in another window/);

    await authenticate(pending, 'fail');
    await waitFor(
      async () =>
        (await stack.db.query(`SELECT membership_claimed_at FROM orders WHERE setup_intent_id = $1`, [waiting.id]))[0]
          .membership_claimed_at === null,
      'the claim given up',
    );
    await confirmStandard(other.id).expect(200);
    expect(await stack.db.query(`SELECT setup_intent_id, status FROM orders ORDER BY created_at`)).toEqual([
      { setup_intent_id: waiting.id, status: 'incomplete' },
      { setup_intent_id: other.id, status: 'active' },
    ]);
  });

  it('a payment_failed event delivered after succeeded leaves the order succeeded and owes nothing again', async () => {
    const paymentId = await payOneTime();
    await settled('succeeded');
    const [succeeded] = await stack.db.query(`SELECT payload FROM payment_events WHERE type = 'payment_intent.succeeded'`);
    const late = {
      ...succeeded.payload,
      id: 'evt_lateoutoforder000000001',
      type: 'payment_intent.payment_failed',
      created: succeeded.payload.created - 5,
      data: {
        object: { ...succeeded.payload.data.object, status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } },
      },
    };
    expect((await sendSignedWebhook(stack.url, SECRET, late)).body).toEqual({ received: true, duplicate: false });
    await waitFor(
      async () => (await stack.db.query(`SELECT applied_at FROM payment_events WHERE id = $1`, [late.id]))[0]?.applied_at,
      'late event applied',
    );

    expect((await order()).status).toBe('succeeded');
    expect((await http().get(`/api/verify-payment/${paymentId}`).expect(200)).body.status).toBe('succeeded');
    await outboxDrained(stack.db);
    expect(await stack.db.query(`SELECT id FROM outbox WHERE job_name = 'order-paid'`)).toHaveLength(1);
    expect(counts()).toEqual(ONE_EACH);
  });

  it('SMTP down, then up: the other effects go out, and the receipt is delivered once when the server is back', async () => {
    await smtp.stop();
    try {
      await payOneTime();
      await waitFor(async () => {
        const [row] = await stack.db.query(`SELECT attempts, last_error FROM side_effects WHERE kind = 'receipt-email'`);
        return row?.attempts >= 2 && row.last_error;
      }, 'receipt retried while SMTP is down');
      expect(counts()).toEqual({ ...ONE_EACH, mails: onceEach(0) });
      expect((await order()).paid_effects).not.toHaveProperty('receipt-email');
    } finally {
      await smtp.start();
    }
    await waitFor(async () => (await order()).paid_effects['receipt-email'] === 'sent', 'receipt sent after SMTP is back', 30_000);
    await outboxDrained(stack.db);
    expect(counts()).toEqual(ONE_EACH);
    const [receipt] = await stack.db.query(`SELECT status, last_error FROM side_effects WHERE kind = 'receipt-email'`);
    expect(receipt).toEqual({ status: 'done', last_error: null });
  });
});

describe('payments through the worker, Meta and GA4 not configured', () => {
  beforeAll(async () => {
    const fakes = await startFakes();
    stack = await startStack(
      stackEnv(fakes, { META_PIXEL_ID: '', META_CAPI_ACCESS_TOKEN: '', GA4_MEASUREMENT_ID: '', GA4_API_SECRET: '' }),
    );
  });
  afterAll(stopAll);
  beforeEach(reset);

  it('records "skipped: not configured" for both and calls neither; the sale and receipt still go out', async () => {
    await payOneTime();
    await settled('succeeded');
    expect((await order()).paid_effects).toEqual({
      ...ALL_SENT,
      'meta-purchase': 'skipped: not configured',
      'ga4-purchase': 'skipped: not configured',
    });
    expect(meta.requests).toHaveLength(0);
    expect(ga4.requests).toHaveLength(0);
    expect(counts()).toEqual({ ...ONE_EACH, meta: onceEach(0), ga4: onceEach(0) });
    expect(await stack.db.query(`SELECT key FROM side_effects WHERE kind IN ('meta-purchase', 'ga4-purchase')`)).toEqual([]);
  });
});

describe('test orders through the worker (the sandbox is never a sale)', () => {
  const TEST_CODE = 'TEST4242';
  beforeAll(async () => {
    const fakes = await startFakes();
    stack = await startStack(
      stackEnv(fakes, {
        META_PIXEL_ID: '1234567890',
        META_CAPI_ACCESS_TOKEN: META_TOKEN,
        META_TEST_EVENT_CODE: TEST_CODE,
        GA4_MEASUREMENT_ID: 'G-WORKER1',
        GA4_API_SECRET: 'ga4-secret',
      }),
    );
  });
  afterAll(stopAll);
  beforeEach(reset);

  it('no affiliate sale and no GA4 purchase; Meta gets a Test Events purchase only; the receipt still goes', async () => {
    await payOneTime(false);
    await settled('succeeded');
    expect((await order()).paid_effects).toEqual({
      'affiliate-sale': 'skipped: test order',
      'meta-purchase': 'sent',
      'ga4-purchase': 'skipped: test order',
      'receipt-email': 'sent',
    });
    expect(affiliate.salesAtDoor()).toEqual([]);
    expect(ga4.requests).toHaveLength(0);
    expect(meta.events().map((e) => e.testEventCode)).toEqual([TEST_CODE]);
    expect(counts()).toEqual({ ...ONE_EACH, sales: onceEach(0), ga4: onceEach(0) });
    expect(await stack.db.query(`SELECT key FROM side_effects WHERE kind IN ('affiliate-sale', 'ga4-purchase')`)).toEqual([]);
  });

  it("a live order's Purchase never carries the test event code", async () => {
    await payOneTime(true);
    await settled('succeeded');
    expect((await order()).paid_effects).toEqual(ALL_SENT);
    expect(meta.events().map((e) => e.testEventCode)).toEqual([undefined]);
  });
});

describe('test orders through the worker, no Meta test event code', () => {
  beforeAll(async () => {
    const fakes = await startFakes();
    stack = await startStack(
      stackEnv(fakes, {
        META_PIXEL_ID: '1234567890',
        META_CAPI_ACCESS_TOKEN: META_TOKEN,
        META_TEST_EVENT_CODE: '',
        GA4_MEASUREMENT_ID: 'G-WORKER1',
        GA4_API_SECRET: 'ga4-secret',
      }),
    );
  });
  afterAll(stopAll);
  beforeEach(reset);

  it('calls none of the three: each is recorded "skipped: test order"', async () => {
    await payOneTime(false);
    await settled('succeeded');
    expect((await order()).paid_effects).toEqual({
      'affiliate-sale': 'skipped: test order',
      'meta-purchase': 'skipped: test order',
      'ga4-purchase': 'skipped: test order',
      'receipt-email': 'sent',
    });
    expect([affiliate.salesAtDoor().length, meta.requests.length, ga4.requests.length]).toEqual([0, 0, 0]);
    expect(counts()).toEqual({ sales: onceEach(0), meta: onceEach(0), ga4: onceEach(0), mails: onceEach(1) });
  });
});
