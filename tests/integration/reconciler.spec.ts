import { toMinorUnits } from '@contracts/money';
import { CURRENCY, planOf } from '@contracts/plans';
import { PaymentReconciler, type ReconcileSummary } from '../../worker/src/reconciler/payment-reconciler';
import { doorSummary, onceEach } from '../fakes/exactly-once';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { SmtpSink } from '../fakes/smtp-sink';
import { FakeStripeServer } from '../fakes/stripe-server';
import { outboxDrained, resetData, Stack, startStack } from './support/stack';

/**
 * The payment reconciler against the Stripe fake: orders whose webhook never came, events whose
 * job gave up or was lost, and paid orders missing a paid effect are repaired from a fresh
 * provider read, through the webhook's own lock-read-apply path, each effect exactly once. Rows
 * are backdated past RECONCILE_SETTLE_AFTER_S rather than waited for; each test runs its passes
 * itself (the worker's own timer waits an hour here).
 */
const stripe = new FakeStripeServer();
const affiliate = new FakeAffiliateServer();
const smtp = new SmtpSink();
const NOTHING: ReconcileSummary = { eventsApplied: 0, ordersRead: 0, paidEffectsOwed: 0, graceEnded: 0, failures: 0 };
let stack: Stack;
let counter = 0;

const reconciler = () => stack.worker!.get(PaymentReconciler);
/** Provider reads of payment intents, as Stripe's door saw them. */
const paymentReads = () => stripe.calls().filter((call) => call.startsWith('GET /v1/payment_intents/')).length;
const effectsAtDoor = () => ({ sales: doorSummary(affiliate.salesAtDoor()), mails: doorSummary(smtp.deliveriesAtDoor()) });
const order = async (id: string): Promise<{ status: string; paid_at: Date | null; paid_effects: Record<string, string> }> =>
  (await stack.db.query(`SELECT status, paid_at, paid_effects FROM orders WHERE id = $1`, [id]))[0];
const orderPaidJobs = async (id: string): Promise<number> =>
  (await stack.db.query(`SELECT count(*)::int AS n FROM outbox WHERE job_name = 'order-paid' AND payload ->> 'orderId' = $1`, [id]))[0].n;

/**
 * A one-time checkout of `minutesAgo` holding its own payment intent, which the Stripe fake
 * reports succeeded: as if the buyer paid and the webhook never came. A live order (real money),
 * so its affiliate sale is owed.
 */
async function checkout(minutesAgo: number): Promise<{ id: string; paymentIntent: string }> {
  const n = ++counter;
  const paymentIntent = `pi_reconcile${String(n).padStart(12, '0')}`;
  const [{ id }] = await stack.db.query(
    `INSERT INTO orders (plan_id, kind, amount_cents, currency, email, email_normalized, name, source, referral, provider,
                         payment_intent_id, customer_id, created_at, livemode)
     VALUES ('full-payment', 'one-time', $4, $5, $1, $1, 'Late Webhook', 'clear', 'partner7', 'stripe', $2,
             'cus_fake000000000000000001', now() - make_interval(mins => $3), true)
     RETURNING id`,
    [
      `reconciled-${n}@example.com`,
      paymentIntent,
      minutesAgo,
      toMinorUnits(planOf('full-payment').amount, CURRENCY),
      CURRENCY.toLowerCase(),
    ],
  );
  return { id, paymentIntent };
}

/** A paid order whose affiliate sale is done and whose receipt never was (its order-paid job long gone). */
async function paidWithoutReceipt(): Promise<string> {
  const { id } = await checkout(120);
  await stack.db.query(
    `UPDATE orders SET status = 'succeeded', paid_at = now() - interval '1 hour',
            paid_effects = '{"affiliate-sale": "sent", "meta-purchase": "skipped: not configured", "ga4-purchase": "skipped: not configured"}'
      WHERE id = $1`,
    [id],
  );
  await stack.db.query(
    `INSERT INTO side_effects (key, kind, status, detail, finished_at) VALUES ($1, 'affiliate-sale', 'done', '{}', now())`,
    [`affiliate-sale:${id}`],
  );
  return id;
}

/** A webhook event stored an hour ago and never applied: no job of its own is left to apply it. */
async function strandedEvent(order: { id: string; paymentIntent: string }): Promise<void> {
  const event = {
    id: `evt_stranded_${order.paymentIntent}`,
    object: 'event',
    type: 'payment_intent.succeeded',
    data: { object: { id: order.paymentIntent, object: 'payment_intent', status: 'succeeded', metadata: { order_id: order.id } } },
  };
  await stack.db.query(`INSERT INTO payment_events (id, type, payload, received_at) VALUES ($1, $2, $3, now() - interval '1 hour')`, [
    event.id,
    event.type,
    JSON.stringify(event),
  ]);
}

beforeAll(async () => {
  await stripe.start();
  stack = await startStack({
    STRIPE_SECRET_KEY: 'sk_test_fakekey',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fakekey',
    STRIPE_WEBHOOK_SECRET: 'whsec_reconcilertestsecret0000000',
    STRIPE_API_HOST: '127.0.0.1',
    STRIPE_API_PORT: String(stripe.port),
    STRIPE_API_PROTOCOL: 'http',
    AFFILIATE_API_URL: await affiliate.start(),
    AFFILIATE_API_KEY: 'affiliate-key',
    SMTP_URL: await smtp.start(),
    // Reconcile everything of the last day; the timer's own pass (and its read claim) lasts an hour.
    JOB_RETRY_HORIZON_S: '86400',
    RECONCILE_INTERVAL_S: '3600',
    RECONCILE_SETTLE_AFTER_S: '1800',
  });
});
afterAll(async () => {
  // Its backdated, never-settled orders are for its own passes only.
  await stack?.db.query('TRUNCATE orders, payment_events, outbox, side_effects CASCADE');
  await stack?.stop();
  await Promise.all([stripe.stop(), affiliate.stop(), smtp.stop()]);
});
beforeEach(async () => {
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events CASCADE');
  stripe.reset();
  affiliate.reset();
  smtp.reset();
});

it('makes an order whose webhook never arrived paid, with each paid effect once', async () => {
  const { id } = await checkout(60);
  expect((await order(id)).status).toBe('created');

  expect(await reconciler().reconcile()).toEqual({ ...NOTHING, ordersRead: 1 });
  expect(await order(id)).toMatchObject({ status: 'succeeded', paid_at: expect.any(Date) });
  await outboxDrained(stack.db);
  expect(effectsAtDoor()).toEqual({ sales: onceEach(1), mails: onceEach(1) });
  expect((await order(id)).paid_effects).toEqual({
    'affiliate-sale': 'sent',
    'receipt-email': 'sent',
    'meta-purchase': 'skipped: not configured',
    'ga4-purchase': 'skipped: not configured',
  });
  expect(paymentReads()).toBe(1);
});

it('leaves orders younger than the settle threshold to their webhooks', async () => {
  await checkout(5);
  expect(await reconciler().reconcile()).toEqual(NOTHING);
  expect(paymentReads()).toBe(0);
});

it('applies a webhook event that was stored but never applied, from a fresh provider read', async () => {
  // The order itself is young: only its stranded event brings it to the reconciler.
  const young = await checkout(5);
  await strandedEvent(young);

  expect(await reconciler().reconcile()).toEqual({ ...NOTHING, eventsApplied: 1 });
  const [event] = await stack.db.query(`SELECT applied_at FROM payment_events`);
  expect(event.applied_at).toBeInstanceOf(Date);
  expect((await order(young.id)).status).toBe('succeeded');
  await outboxDrained(stack.db);
  expect(effectsAtDoor()).toEqual({ sales: onceEach(1), mails: onceEach(1) });
});

it('re-owes a paid effect missing from the ledger: only that effect happens, once, and a second pass does nothing', async () => {
  const id = await paidWithoutReceipt();

  expect(await reconciler().reconcile()).toEqual({ ...NOTHING, paidEffectsOwed: 1 });
  await outboxDrained(stack.db);
  // The sale was finished in the ledger: replayed, not sent again.
  expect(effectsAtDoor()).toEqual({ sales: onceEach(0), mails: onceEach(1) });
  expect((await order(id)).paid_effects).toMatchObject({ 'affiliate-sale': 'sent', 'receipt-email': 'sent' });

  expect(await reconciler().reconcile()).toEqual(NOTHING);
  await outboxDrained(stack.db);
  expect(effectsAtDoor()).toEqual({ sales: onceEach(0), mails: onceEach(1) });
  expect(await orderPaidJobs(id)).toBe(1);
  // A paid order is not read from the provider again.
  expect(paymentReads()).toBe(0);
});

it('leaves a paid order whose order-paid job gave up to the admin', async () => {
  const id = await paidWithoutReceipt();
  await stack.db.query(
    `INSERT INTO outbox (queue, job_name, payload, dispatched_at, failed_at, last_error)
     VALUES ('payments', 'order-paid', $1, now(), now(), 'SMTP server unavailable')`,
    [JSON.stringify({ orderId: id })],
  );
  expect(await reconciler().reconcile()).toEqual(NOTHING);
  expect(await orderPaidJobs(id)).toBe(1);
  expect(effectsAtDoor().mails).toEqual(onceEach(0));
});

it('does nothing twice when two passes run at once (as in two workers)', async () => {
  const unsettled = await checkout(60);
  const missingReceipt = await paidWithoutReceipt();
  const withEvent = await checkout(5);
  await strandedEvent(withEvent);

  const passes = await Promise.all([reconciler().reconcile(), reconciler().reconcile()]);
  const total = passes.reduce((sum, pass) => ({
    eventsApplied: sum.eventsApplied + pass.eventsApplied,
    ordersRead: sum.ordersRead + pass.ordersRead,
    paidEffectsOwed: sum.paidEffectsOwed + pass.paidEffectsOwed,
    graceEnded: sum.graceEnded + pass.graceEnded,
    failures: sum.failures + pass.failures,
  }));
  expect(total).toEqual({ eventsApplied: 1, ordersRead: 1, paidEffectsOwed: 1, graceEnded: 0, failures: 0 });
  // One provider read per order read: the unsettled one and the one with the stranded event.
  expect(paymentReads()).toBe(2);
  await outboxDrained(stack.db);
  for (const id of [unsettled.id, missingReceipt, withEvent.id]) expect(await orderPaidJobs(id)).toBe(1);
  expect(effectsAtDoor()).toEqual({ sales: onceEach(2), mails: onceEach(3) });
});
