import request from 'supertest';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { SmtpSink } from '../fakes/smtp-sink';
import { paymentsOf, paymentsSettled } from './support/payments';
import { clientAddresses, outboxDrained, waitFor } from './support/stack';
import { stripeSpecStack } from './support/stripe-spec';

/**
 * After the first payment, with Stripe (its fake) and Stripe's event sequences through the real
 * worker: an instalment plan's later charges scheduled once and recorded as 'Payment N of M';
 * failed renewals (invoice.payment_failed, customer.subscription.updated past_due) told once;
 * the end (customer.subscription.deleted) told once, unless the plan was paid in full. Events
 * arrive duplicated and out of order.
 */
const WEBHOOK_SECRET = 'whsec_lifecycletestsecret00000000';
const MEMBER_SUBSCRIPTION = 'sub_fake000000000000000001';
const SCHEDULED_SUBSCRIPTION = 'sub_scheduled0000000000001';
const DAY = 86_400;
/** Plans and prices from the site folder, so a seller's price change or rename keeps this green. */
const STANDARD = OFFERS.default;
const STANDARD_CENTS = toMinorUnits(STANDARD.amount, CURRENCY);
const SIX_MONTH = planOf('6-month');
const SIX_MONTH_CENTS = toMinorUnits(SIX_MONTH.amount, CURRENCY);

const smtp = new SmtpSink();
const spec = stripeSpecStack({ webhookSecret: WEBHOOK_SECRET, env: async () => ({ SMTP_URL: await smtp.start() }), fakes: [smtp] });
const { stripe, event, webhook: send } = spec;
let counter = 0;
const nextClient = clientAddresses(9);
let buyer = '';

const post = (path: string, body: object) => request(spec.stack.url).post(path).set('X-Forwarded-For', nextClient()).send(body);

const order = async () =>
  (await spec.stack.db.query(`SELECT id, status, subscription_id, subscription_state, paid_at FROM orders WHERE email = $1`, [buyer]))[0];
const subjects = () => smtp.messages.filter((m) => m.envelope.to.includes(buyer)).map((m) => m.subject ?? '');

beforeEach(() => {
  buyer = `lifecycle-${++counter}@example.com`;
});

it('the 6-month plan is six charges of its price: the five after checkout on a schedule made once, then nothing', async () => {
  await post('/api/create-payment-intent', {
    email: buyer,
    name: 'Ina Stalment',
    source: 'clear',
    plan: SIX_MONTH.name,
    amount: SIX_MONTH.amount,
  }).expect(200);
  const { id: orderId } = await order();
  const charge = { id: 'pi_fake000000000000000001', object: 'payment_intent', status: 'succeeded', metadata: { order_id: orderId } };
  // Stripe's success event, delivered twice: the schedule is still made once.
  const succeeded = event('payment_intent.succeeded', charge);
  await send(succeeded);
  await send(event('payment_intent.succeeded', charge));
  await waitFor(
    async () => stripe.requests.some((r) => r.method === 'POST' && r.path === '/v1/subscription_schedules' && r.status === 200),
    'schedule made',
  );
  await outboxDrained(spec.stack.db);

  const schedules = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/subscription_schedules');
  expect(schedules).toHaveLength(1);
  const paidAt: Date = (await order()).paid_at;
  const expectedStart = new Date(paidAt);
  expectedStart.setUTCMonth(expectedStart.getUTCMonth() + 1);
  expect(schedules[0].params).toMatchObject({
    customer: 'cus_fake000000000000000001',
    end_behavior: 'cancel',
    'default_settings[default_payment_method]': 'pm_fake000000000000000001',
    'phases[0][duration][interval]': 'month',
    'phases[0][duration][interval_count]': '5',
    'phases[0][metadata][order_id]': orderId,
    'metadata[order_id]': orderId,
  });
  expect(Math.abs(Number(schedules[0].params.start_date) - expectedStart.getTime() / 1000)).toBeLessThanOrEqual(DAY);
  expect(schedules[0].idempotencyKey).toBe(`order:${orderId}:schedule-instalments`);

  // The schedule starts: Stripe creates its subscription (carrying our order id) and bills it
  // five times; the first of those invoices is the subscription's own (subscription_create).
  const subscription = { id: SCHEDULED_SUBSCRIPTION, object: 'subscription', status: 'active', metadata: { order_id: orderId } };
  const now = Math.floor(Date.now() / 1000);
  const invoices = [1, 2, 3, 4, 5].map((n) =>
    stripe.addInvoice({
      id: `in_instalment00000000000000${n}`,
      subscription: SCHEDULED_SUBSCRIPTION,
      billingReason: n === 1 ? 'subscription_create' : 'subscription_cycle',
      amountPaid: SIX_MONTH_CENTS,
      paidAt: now + n * 30 * DAY,
      metadata: { order_id: orderId },
    }),
  );
  await send(event('customer.subscription.created', subscription));
  // Out of order, one replayed and one re-sent under a new id.
  for (const n of [2, 1, 4, 3, 5]) await send(event('invoice.paid', invoices[n - 1], { created: now + n * 30 * DAY, id: `evt_inst_${n}` }));
  await send(event('invoice.paid', invoices[2], { created: now + 90 * DAY, id: 'evt_inst_3' }));
  await send(event('invoice.paid', invoices[2], { created: now + 90 * DAY }));
  await paymentsSettled(spec.stack.db, orderId, 6);
  // The schedule ends after the fifth: Stripe cancels its subscription.
  stripe.setSubscriptionStatus(SCHEDULED_SUBSCRIPTION, 'canceled');
  await send(event('customer.subscription.deleted', { ...subscription, status: 'canceled' }, { created: now + 180 * DAY }));
  await waitFor(async () => (await order()).subscription_state === 'canceled', 'schedule ended');
  await outboxDrained(spec.stack.db);

  const rows = await paymentsOf(spec.stack.db, orderId);
  expect(rows.map((r) => [r.sequence, r.amount_cents])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, SIX_MONTH_CENTS]));
  expect(await order()).toMatchObject({ status: 'succeeded', subscription_id: SCHEDULED_SUBSCRIPTION });
  const receipts = smtp.messages.map((m) => (m.text ?? '').match(/Payment: (Payment \d of 6)/)?.[1]).sort();
  expect(receipts).toEqual([1, 2, 3, 4, 5, 6].map((n) => `Payment ${n} of 6`));
  expect(subjects().filter((s) => /has ended/.test(s))).toEqual([]);
  const mails = smtp.deliveriesAtDoor();
  expect(exactlyOnceProblems(mails, [...new Set(mails.map((m) => m.identity))])).toEqual([]);
});

it('a renewal Stripe fails to charge: told once across its retries; canceled after the last: ended, told once', async () => {
  await post('/api/create-setup-intent', { email: buyer, name: 'Dunn Ing', source: 'clear' }).expect(200);
  await post('/api/confirm-subscription', {
    email: buyer,
    name: 'Dunn Ing',
    source: 'clear',
    setupIntentId: 'seti_fake000000000000000001',
    plan: STANDARD.name,
    amount: STANDARD.amount,
  }).expect(200);
  await waitFor(async () => (await order())?.status === 'active', 'member active');
  const { id: orderId } = await order();
  const subscription = { id: MEMBER_SUBSCRIPTION, object: 'subscription', metadata: { order_id: orderId } };
  const now = Math.floor(Date.now() / 1000);
  const open = stripe.addInvoice({
    id: 'in_renewalfailed000000001',
    subscription: MEMBER_SUBSCRIPTION,
    billingReason: 'subscription_cycle',
    amountPaid: STANDARD_CENTS,
    paidAt: now + 30 * DAY,
    status: 'open',
    metadata: { order_id: orderId },
  });

  // Stripe's sequence: the failed invoice, the subscription past due, then Smart Retries failing again.
  stripe.setSubscriptionStatus(MEMBER_SUBSCRIPTION, 'past_due');
  await send(event('invoice.payment_failed', open, { created: now + 30 * DAY }));
  await send(event('customer.subscription.updated', { ...subscription, status: 'past_due' }, { created: now + 30 * DAY }));
  await waitFor(async () => (await order()).status === 'past_due', 'past due');
  await send(event('invoice.payment_failed', { ...open, attempt_count: 2 }, { created: now + 33 * DAY }));
  await send(event('invoice.payment_failed', { ...open, attempt_count: 3 }, { created: now + 35 * DAY }));
  await waitFor(
    async () => subjects().some((s) => s.includes(`payment of ${formatMoney(STANDARD_CENTS, CURRENCY, { decimals: 'always' })} failed`)),
    'failed-payment e-mail',
  );

  // After the last retry, Stripe marks the invoice uncollectible and cancels; the deletion arrives twice.
  stripe.addInvoice({
    ...open,
    id: open.id as string,
    subscription: MEMBER_SUBSCRIPTION,
    billingReason: 'subscription_cycle',
    amountPaid: STANDARD_CENTS,
    paidAt: now,
    status: 'uncollectible',
  });
  stripe.setSubscriptionStatus(MEMBER_SUBSCRIPTION, 'canceled');
  const deleted = event('customer.subscription.deleted', { ...subscription, status: 'canceled' }, { created: now + 37 * DAY });
  await send(deleted);
  await send(event('customer.subscription.deleted', { ...subscription, status: 'canceled' }, { created: now + 37 * DAY }));
  // A late past-due update after the end moves nothing back.
  await send(event('customer.subscription.updated', { ...subscription, status: 'past_due' }, { created: now + 30 * DAY }));
  await waitFor(async () => subjects().some((s) => /membership has ended/.test(s)), 'ended e-mail');
  await outboxDrained(spec.stack.db);

  expect(await order()).toMatchObject({ status: 'canceled', subscription_state: 'canceled' });
  expect(subjects().filter((s) => /failed/.test(s))).toHaveLength(1);
  expect(subjects().filter((s) => /has ended/.test(s))).toHaveLength(1);
  expect((await paymentsOf(spec.stack.db, orderId)).map((p) => p.sequence)).toEqual([1]);
  const ended = smtp.messages.find((m) => /has ended/.test(m.subject ?? ''))!;
  expect(ended.text).toContain('/account');
  const mails = smtp.deliveriesAtDoor();
  expect(exactlyOnceProblems(mails, [...new Set(mails.map((m) => m.identity))])).toEqual([]);
});
