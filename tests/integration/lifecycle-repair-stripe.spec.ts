import request from 'supertest';
import { JOBS } from '@contracts/jobs';
import { OFFERS, planOf } from '@contracts/plans';
import { PaymentsCarryProviderIds1766966400000 } from '@core/database/migrations/1766966400000-payments-carry-provider-ids';
import { PaymentMetrics } from '@core/metrics/payment-metrics';
import { owe } from '@core/queue/owe';
import { SmtpSink } from '../fakes/smtp-sink';
import { adminSignIn } from './support/admin';
import { clientAddresses, flushRedis, outboxDrained, Stack, waitFor } from './support/stack';
import { stripeSpecStack } from './support/stripe-spec';

/**
 * Against the Stripe fake, through the real worker: first payments a legacy database recorded
 * under their order's own id (the order holding no Stripe id) are repaired from Stripe's search
 * by the order id its objects carry, at the worker's boot; and an instalment plan stopped before
 * Stripe started its schedule's subscription (so no subscription event will ever come) ends as a
 * canceled one would: access ended, the buyer told once.
 */
const ADMIN = { email: 'repair.admin@example.com', password: 'a long enough repair password' };
const WEBHOOK_SECRET = 'whsec_repairstripesecret00000000';
const PI = 'pi_fake000000000000000001';
const SUBSCRIPTION = 'sub_fake000000000000000001';

const smtp = new SmtpSink();
const spec = stripeSpecStack({
  webhookSecret: WEBHOOK_SECRET,
  env: async () => {
    await flushRedis();
    return { SMTP_URL: await smtp.start() };
  },
  fakes: [smtp],
  truncate: 'orders, payment_events, memberships',
  drainFirst: true,
});
let stack: Stack;
let cookie = '';
let csrfToken = '';
let counter = 0;
const nextClient = clientAddresses(83);

const http = () => request(stack.url);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', nextClient()).send(body);
const adminPost = (path: string) => http().post(path).set('cookie', cookie).set('x-csrf-token', csrfToken).send({});
const webhook = (type: string, object: Record<string, unknown>) => spec.webhook(spec.event(type, object));
const orderOf = async (email: string) => (await stack.db.query(`SELECT * FROM orders WHERE email = $1`, [email]))[0];
const paymentOf = async (orderId: string) =>
  (await stack.db.query(`SELECT provider_payment_id FROM payments WHERE order_id = $1`, [orderId]))[0]?.provider_payment_id;
const unrepaired = async () =>
  (await stack.worker!.get(PaymentMetrics).registry.getSingleMetric('funnel_payments_without_provider_id')!.get()).values[0]?.value;

/** A one-time plan bought with the fake's PaymentIntent (its metadata names the order), paid by its event. */
async function buyCharge(email: string, planId: 'full-payment' | '6-month'): Promise<string> {
  const plan = planOf(planId);
  await post('/api/create-payment-intent', {
    email,
    name: 'Rae Pair',
    source: 'clear',
    plan: plan.name,
    amount: plan.amount,
  }).expect(200);
  const { id } = await orderOf(email);
  await webhook('payment_intent.succeeded', { id: PI, object: 'payment_intent', status: 'succeeded', metadata: { order_id: id } });
  await waitFor(async () => Boolean(await paymentOf(id)), 'payment 1 recorded');
  return id;
}

/** A membership of the default plan: card setup, subscription created and paid at once (the fake's). */
async function buyMembership(email: string): Promise<string> {
  await post('/api/create-setup-intent', { email, name: 'Rae Pair', source: 'clear' }).expect(200);
  await post('/api/confirm-subscription', {
    email,
    name: 'Rae Pair',
    source: 'clear',
    setupIntentId: 'seti_fake000000000000000001',
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  }).expect(200);
  const { id } = await orderOf(email);
  await waitFor(async () => (await paymentOf(id)) === SUBSCRIPTION, 'payment 1 recorded');
  return id;
}

/** Makes the database what a legacy one is: first payments under their order's id, the orders holding no Stripe id, the check NOT VALID. */
async function asLegacyDatabase(): Promise<void> {
  await outboxDrained(stack.db);
  const migration = new PaymentsCarryProviderIds1766966400000();
  const runner = stack.db.createQueryRunner();
  try {
    await migration.down(runner);
    await runner.query(`UPDATE payments SET provider_payment_id = order_id::text`);
    await runner.query(`UPDATE orders SET payment_intent_id = NULL, subscription_id = NULL`);
    await migration.up(runner);
  } finally {
    await runner.release();
  }
}

/** A worker's boot, and the repair pass it owes run to its end. */
async function reboot(): Promise<void> {
  await stack.db.query(`DELETE FROM outbox WHERE job_name = 'repair-payment-ids'`);
  await stack.stopWorker();
  await stack.startWorker();
  await waitFor(async () => (await stack.db.query(`SELECT 1 FROM outbox WHERE job_name = 'repair-payment-ids'`)).length > 0, 'owed');
  await outboxDrained(stack.db);
}

beforeAll(async () => {
  stack = spec.stack;
  await stack.db.query(`TRUNCATE admin_accounts, admin_sessions, admin_audit_log CASCADE`);
  ({ cookie, csrfToken } = await adminSignIn(stack.url, ADMIN));
}, 60_000);


it("repairs legacy first payments from Stripe's search by order id, reports the one Stripe has nothing for, and repairs it once it has", async () => {
  const [chargeBuyer, memberBuyer] = [`repair-charge-${++counter}@example.com`, `repair-member-${counter}@example.com`];
  const charged = await buyCharge(chargeBuyer, 'full-payment');
  const member = await buyMembership(memberBuyer);
  await asLegacyDatabase();
  expect(await paymentOf(charged)).toBe(charged);
  // The check stays NOT VALID for the legacy rows, and still refuses a new one.
  await expect(stack.db.query(`UPDATE payments SET provider_payment_id = order_id::text`)).rejects.toThrow(/payments_provider_id_not_ours/);

  // Stripe's search finds the charge's PaymentIntent; no subscription carries the membership's order id yet.
  await reboot();
  expect(await paymentOf(charged)).toBe(PI);
  expect(await orderOf(chargeBuyer)).toMatchObject({ payment_intent_id: PI });
  expect(await paymentOf(member)).toBe(member);
  expect(await unrepaired()).toBe(1);
  const searches = spec.stripe.requests.filter((r) => r.path.endsWith('/search'));
  expect(searches.map((r) => [r.path, r.params.query]).sort()).toEqual([
    ['/v1/payment_intents/search', `metadata['order_id']:'${charged}'`],
    ['/v1/subscriptions/search', `metadata['order_id']:'${member}'`],
  ]);

  // An incomplete subscription's first invoice was never paid: not the payment; the active one is.
  spec.stripe.addSubscriptionFor(member, 'incomplete_expired');
  const subscriptionId = spec.stripe.addSubscriptionFor(member);
  await reboot();
  expect(await paymentOf(member)).toBe(subscriptionId);
  expect(await orderOf(memberBuyer)).toMatchObject({ subscription_id: subscriptionId });
  expect(await unrepaired()).toBe(0);
});

it("a 6-Month plan stopped before Stripe started its schedule's subscription ends: access ended, the buyer told once", async () => {
  const email = `stopped-early-${++counter}@example.com`;
  const orderId = await buyCharge(email, '6-month');
  await waitFor(async () => Boolean((await orderOf(email)).instalment_schedule_id), 'the schedule kept');
  const scheduleId: string = (await orderOf(email)).instalment_schedule_id;
  await outboxDrained(stack.db);
  expect(await stack.db.query(`SELECT status FROM memberships`)).toEqual([{ status: 'active' }]);

  await adminPost(`/api/admin/billing/orders/${orderId}/stop-instalments`).expect(200);
  await outboxDrained(stack.db);
  expect(spec.stripe.schedule(scheduleId)).toMatchObject({ status: 'canceled', subscription: null });
  expect(await orderOf(email)).toMatchObject({ subscription_id: null, subscription_state: 'canceled' });
  expect(await stack.db.query(`SELECT status, access_changes FROM memberships`)).toEqual([{ status: 'ended', access_changes: 2 }]);
  await waitFor(async () => smtp.messages.some((m) => /membership has ended/.test(m.subject ?? '')), 'ended e-mail');

  // The stop owed again (a lost job's retry): nothing more is canceled, ended or told.
  await owe(stack.db, [{ name: JOBS.stopInstalments, data: { orderId } }]);
  await outboxDrained(stack.db);
  expect(spec.stripe.requests.filter((r) => r.path === `/v1/subscription_schedules/${scheduleId}/cancel`)).toHaveLength(1);
  expect(await stack.db.query(`SELECT status, access_changes FROM memberships`)).toEqual([{ status: 'ended', access_changes: 2 }]);
  expect(smtp.messages.filter((m) => /membership has ended/.test(m.subject ?? ''))).toHaveLength(1);
});
