import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { JOBS } from '@contracts/jobs';
import { owe } from '@core/queue/owe';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { FakeGa4MpServer } from '../fakes/ga4-mp-server';
import { SmtpSink } from '../fakes/smtp-sink';
import { adminSignIn, type AdminSession } from './support/admin';
import { clientAddresses, flushRedis, outboxDrained, waitFor } from './support/stack';
import { stripeSpecStack } from './support/stripe-spec';

/**
 * Refunds and disputes against the Stripe fake through the real worker: an admin refund goes to
 * the payment intent that paid the payment (a subscription's first invoice's included), once per
 * request key; refunds made in Stripe's dashboard arrive as charge.refunded / refund.created /
 * refund.updated, duplicated and out of order, and are recorded and have their effects once;
 * disputes move the order to disputed, then won or lost, e-mail the owner once per status, and a
 * lost one has a refund's effects.
 */
const ADMIN = { email: 'stripe.refunds.admin@example.com', password: 'a long enough refunds password' };
const WEBHOOK_SECRET = 'whsec_refundsstripesecret0000000';
/** Plans and prices from the site folder, so a seller's price change or rename keeps this green. */
const FULL_PAYMENT = planOf('full-payment');
const FULL_CENTS = toMinorUnits(FULL_PAYMENT.amount, CURRENCY);
const STANDARD_CENTS = toMinorUnits(OFFERS.default.amount, CURRENCY);
/** An amount as the owner's dispute e-mails state it ('$997.00'). */
const shown = (cents: number) => formatMoney(cents, CURRENCY, { decimals: 'always' });
/** The default site's owner (site.json brand.ownerEmail) receives the dispute e-mails. */
const OWNER = String(site.brand.ownerEmail);
const PI = 'pi_fake000000000000000001';
const SUBSCRIPTION = 'sub_fake000000000000000001';

const affiliate = new FakeAffiliateServer();
const ga4 = new FakeGa4MpServer();
const smtp = new SmtpSink();
// Jobs an earlier spec file left owed (its sandbox webhooks to a stack now stopped) would keep
// retrying here under this file's two-minute horizon: start from an empty queue and outbox.
beforeAll(flushRedis);
const spec = stripeSpecStack({
  webhookSecret: WEBHOOK_SECRET,
  env: async () => ({
    AFFILIATE_API_URL: await affiliate.start(),
    AFFILIATE_API_KEY: 'affiliate-key',
    GA4_MP_URL: await ga4.start(),
    GA4_MEASUREMENT_ID: 'G-REFUNDS2',
    GA4_API_SECRET: 'ga4-secret',
    SMTP_URL: await smtp.start(),
  }),
  fakes: [affiliate, ga4, smtp],
  drainFirst: true,
});
const { stripe, event, webhook } = spec;
let session: AdminSession;
let counter = 0;
const nextClient = clientAddresses(79);
let buyer = '';

const http = () => request(spec.stack.url);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', nextClient()).send(body);
const refund = (paymentId: string, body: object) =>
  http()
    .post(`/api/admin/billing/payments/${paymentId}/refunds`)
    .set('cookie', session.cookie)
    .set('x-csrf-token', session.csrfToken)
    .send(body);

const order = async () => (await spec.stack.db.query(`SELECT * FROM orders WHERE email = $1`, [buyer]))[0];
const refunds = async () =>
  spec.stack.db.query(
    `SELECT provider_refund_id, amount_cents, status, reason, ends_access, effects FROM refunds WHERE order_id = $1 ORDER BY created_at`,
    [(await order()).id],
  );
const refundMails = () => smtp.messages.filter((m) => m.envelope.to.includes(buyer) && /refund/i.test(m.subject ?? ''));
const ownerMails = () => smtp.messages.filter((m) => m.envelope.to.includes(OWNER));
const ga4Refunds = () => ga4.eventsAtDoor().filter((e) => e.identity.startsWith('refund:'));

async function effectsSettled(count: number): Promise<void> {
  await waitFor(async () => {
    const rows = await refunds();
    return rows.length === count && rows.every((r: { effects: object }) => Object.keys(r.effects).length === 4);
  }, `${count} refund(s) with their effects`);
  await outboxDrained(spec.stack.db);
}

/** A live one-time order with a referral, paid (payment_intent.succeeded) with its paid effects settled; resolves with its payment's id. */
async function buyOneTime(): Promise<string> {
  await post('/api/create-payment-intent', {
    email: buyer,
    name: 'Dee Spute',
    source: 'clear',
    referral: 'partner3',
    plan: FULL_PAYMENT.name,
    amount: FULL_PAYMENT.amount,
  }).expect(200);
  await spec.stack.db.query(`UPDATE orders SET livemode = true WHERE email = $1`, [buyer]);
  await webhook(
    event('payment_intent.succeeded', {
      id: PI,
      object: 'payment_intent',
      status: 'succeeded',
      metadata: { order_id: (await order()).id },
    }),
  );
  return settledPayment();
}

async function buyStandard(): Promise<string> {
  await post('/api/create-setup-intent', { email: buyer, name: 'Sub Scriber', source: 'clear', referral: 'partner3' }).expect(200);
  await spec.stack.db.query(`UPDATE orders SET livemode = true WHERE email = $1`, [buyer]);
  await post('/api/confirm-subscription', {
    email: buyer,
    name: 'Sub Scriber',
    source: 'clear',
    setupIntentId: 'seti_fake000000000000000001',
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  }).expect(200);
  // The subscription's first invoice, paid by the payment intent the checkout confirmed.
  stripe.addInvoice({
    id: 'in_first0000000000000001',
    subscription: SUBSCRIPTION,
    billingReason: 'subscription_create',
    amountPaid: STANDARD_CENTS,
    paidAt: Math.floor(Date.now() / 1000),
    paymentIntent: 'pi_fake_invoice',
  });
  return settledPayment();
}

async function settledPayment(): Promise<string> {
  await waitFor(async () => Object.keys((await order())?.paid_effects ?? {}).length === 4, 'the paid effects');
  await outboxDrained(spec.stack.db);
  const [payment] = await spec.stack.db.query(`SELECT id FROM payments WHERE order_id = $1`, [(await order()).id]);
  return payment.id;
}

beforeAll(async () => {
  await spec.stack.db.query(`TRUNCATE admin_accounts, admin_sessions, admin_audit_log CASCADE`);
  session = await adminSignIn(spec.stack.url, ADMIN);
});
beforeEach(() => {
  buyer = `stripe-refund-buyer-${++counter}@example.com`;
});

it('an admin refund (double click, repeated request, failing affiliate) refunds once at Stripe, each effect once; a second key is a 400', async () => {
  const paymentId = await buyOneTime();
  const requestKey = randomUUID();
  affiliate.failNextRequests(1);
  const answers = await Promise.all([refund(paymentId, { requestKey }), refund(paymentId, { requestKey })]);
  expect(answers.map((a) => a.status)).toEqual([200, 200]);
  await refund(paymentId, { requestKey }).expect(200);
  // Stripe's own events about the refund arrive too, and change nothing.
  const [created] = stripe.refundsCreated();
  const refundId = 're_fake000000000000000001';
  await webhook(event('refund.created', { id: refundId, object: 'refund', payment_intent: PI }));
  await webhook(event('charge.refunded', stripe.chargeOf(PI)));
  await effectsSettled(1);

  expect(stripe.refundsCreated()).toHaveLength(1);
  expect(created).toMatchObject({ idempotencyKey: `refund:${requestKey}`, params: { payment_intent: PI, amount: String(FULL_CENTS) } });
  expect(await refunds()).toEqual([
    {
      provider_refund_id: refundId,
      amount_cents: FULL_CENTS,
      status: 'succeeded',
      reason: 'refund',
      ends_access: true,
      effects: {
        'refund-email': 'sent',
        'affiliate-refund': 'sent',
        'ga4-refund': 'sent',
        'cancel-subscription': 'skipped: not a subscription',
      },
    },
  ]);
  expect(exactlyOnceProblems(affiliate.refundsAtDoor(), [refundId])).toEqual([]);
  expect(exactlyOnceProblems(ga4Refunds(), [`refund:${JSON.stringify(PI)}`])).toEqual([]);
  expect(refundMails()).toHaveLength(1);

  const second = await refund(paymentId, { requestKey: randomUUID() }).expect(400);
  expect(second.body.message).toBe('This payment has already been refunded in full.');
  expect(stripe.refundsCreated()).toHaveLength(1);
});

it('a partial admin refund sends the amount to Stripe and keeps the access', async () => {
  const paymentId = await buyOneTime();
  await refund(paymentId, { requestKey: randomUUID(), amountCents: 2500 }).expect(200);
  await effectsSettled(1);
  expect(stripe.refundsCreated()[0].params.amount).toBe('2500');
  expect(await order()).toMatchObject({ refunded_cents: 2500, access_revoked_at: null });
  expect(affiliate.refunds()[0].params).toMatchObject({ amount: '2500', sale_event_id: PI });
});

it("a full refund of a membership refunds its first invoice's payment intent and cancels the subscription at Stripe once", async () => {
  const paymentId = await buyStandard();
  await refund(paymentId, { requestKey: randomUUID() }).expect(200);
  await effectsSettled(1);
  expect(stripe.refundsCreated()[0].params.payment_intent).toBe('pi_fake_invoice');
  expect(stripe.subscriptionsCanceled()).toEqual([SUBSCRIPTION]);
  expect((await refunds())[0].effects['cancel-subscription']).toBe('done');
  expect(await order()).toMatchObject({ refunded_cents: STANDARD_CENTS, access_revoked_at: expect.any(Date) });
});

it("a full refund of a 6-Month Plan's first payment cancels its schedule at Stripe once: nothing more is charged", async () => {
  await post('/api/create-payment-intent', {
    email: buyer,
    name: 'Ina Stalment',
    source: 'clear',
    plan: planOf('6-month').name,
    amount: planOf('6-month').amount,
  }).expect(200);
  await webhook(
    event('payment_intent.succeeded', {
      id: PI,
      object: 'payment_intent',
      status: 'succeeded',
      metadata: { order_id: (await order()).id },
    }),
  );
  const paymentId = await settledPayment();
  await waitFor(async () => Boolean((await order()).instalment_schedule_id), 'the schedule kept');
  const scheduleId: string = (await order()).instalment_schedule_id;
  await refund(paymentId, { requestKey: randomUUID() }).expect(200);
  await effectsSettled(1);
  // The refund's effects owed again (as after a lost job): the schedule is not canceled twice.
  await owe(spec.stack.db, [{ name: JOBS.refundRecorded, data: { refundId: (await refunds())[0].id } }]);
  await outboxDrained(spec.stack.db);

  expect((await refunds())[0].effects['cancel-subscription']).toBe('done');
  expect(stripe.requests.filter((r) => r.path === `/v1/subscription_schedules/${scheduleId}/cancel`)).toEqual([
    expect.objectContaining({ method: 'POST', idempotencyKey: `stop-instalments:${scheduleId}`, status: 200 }),
  ]);
  expect(stripe.schedule(scheduleId)).toMatchObject({ status: 'canceled' });
});

it("a refund made in Stripe's dashboard, its events duplicated and out of order, is recorded and has its effects once", async () => {
  await buyOneTime();
  const dashboardRefund = stripe.addRefund({ id: 're_dashboard0000000000001', paymentIntent: PI, amount: FULL_CENTS });
  const refunded = event('charge.refunded', stripe.chargeOf(PI));
  await webhook(refunded);
  await webhook(event('refund.updated', dashboardRefund));
  await webhook(event('refund.created', dashboardRefund));
  expect((await webhook(refunded)).body).toEqual({ received: true, duplicate: true });
  await webhook(event('charge.refunded', stripe.chargeOf(PI)));
  await effectsSettled(1);

  expect(await refunds()).toEqual([
    expect.objectContaining({ provider_refund_id: 're_dashboard0000000000001', amount_cents: FULL_CENTS, status: 'succeeded' }),
  ]);
  expect(stripe.refundsCreated()).toHaveLength(0);
  expect(exactlyOnceProblems(affiliate.refundsAtDoor(), ['re_dashboard0000000000001'])).toEqual([]);
  expect(exactlyOnceProblems(ga4Refunds(), [`refund:${JSON.stringify(PI)}`])).toEqual([]);
  expect(refundMails()).toHaveLength(1);
  expect(await order()).toMatchObject({ refunded_cents: FULL_CENTS, access_revoked_at: expect.any(Date) });
});

it('a dispute created then won: the order is disputed, then won, and the owner is e-mailed once each; nothing is reversed', async () => {
  await buyOneTime();
  const opened = stripe.addDispute({ id: 'dp_won0000000000000000001', paymentIntent: PI, amount: FULL_CENTS, status: 'needs_response' });
  const created = event('charge.dispute.created', opened);
  await webhook(created);
  await waitFor(async () => (await order()).dispute_status === 'disputed', 'the order to be disputed');
  await outboxDrained(spec.stack.db);
  const won = stripe.addDispute({ id: 'dp_won0000000000000000001', paymentIntent: PI, amount: FULL_CENTS, status: 'won' });
  await webhook(event('charge.dispute.closed', won));
  await webhook(event('charge.dispute.created', opened));
  await waitFor(async () => (await order()).dispute_status === 'won', 'the dispute to be won');
  await outboxDrained(spec.stack.db);

  expect(ownerMails().map((m) => m.subject)).toEqual([
    `[${site.brand.name}] Payment disputed: ${shown(FULL_CENTS)}`,
    `[${site.brand.name}] Dispute won: ${shown(FULL_CENTS)}`,
  ]);
  expect(await spec.stack.db.query(`SELECT status, effects FROM disputes`)).toEqual([
    { status: 'won', effects: { 'owner-email:disputed': 'sent', 'owner-email:won': 'sent' } },
  ]);
  expect(await refunds()).toEqual([]);
  expect(affiliate.refundsAtDoor()).toHaveLength(0);
  expect(await order()).toMatchObject({ access_revoked_at: null });
});

it("a dispute created then lost has a refund's effects once: affiliate reversal, GA4 refund, access ended", async () => {
  await buyOneTime();
  await webhook(
    event(
      'charge.dispute.created',
      stripe.addDispute({ id: 'dp_lost000000000000000001', paymentIntent: PI, amount: FULL_CENTS, status: 'needs_response' }),
    ),
  );
  await waitFor(async () => (await order()).dispute_status === 'disputed', 'the order to be disputed');
  const lost = stripe.addDispute({ id: 'dp_lost000000000000000001', paymentIntent: PI, amount: FULL_CENTS, status: 'lost' });
  await webhook(event('charge.dispute.closed', lost));
  await webhook(event('charge.dispute.updated', lost));
  await webhook(event('charge.dispute.closed', lost));
  await effectsSettled(1);

  expect(await order()).toMatchObject({ dispute_status: 'lost', refunded_cents: FULL_CENTS, access_revoked_at: expect.any(Date) });
  expect(await refunds()).toEqual([
    {
      provider_refund_id: 'dp_lost000000000000000001',
      amount_cents: FULL_CENTS,
      status: 'succeeded',
      reason: 'dispute',
      ends_access: true,
      effects: {
        'refund-email': 'skipped: dispute',
        'affiliate-refund': 'sent',
        'ga4-refund': 'sent',
        'cancel-subscription': 'skipped: not a subscription',
      },
    },
  ]);
  expect(exactlyOnceProblems(affiliate.refundsAtDoor(), ['dp_lost000000000000000001'])).toEqual([]);
  expect(exactlyOnceProblems(ga4Refunds(), [`refund:${JSON.stringify(PI)}`])).toEqual([]);
  expect(ownerMails().map((m) => m.subject)).toEqual([
    `[${site.brand.name}] Payment disputed: ${shown(FULL_CENTS)}`,
    `[${site.brand.name}] Dispute lost: ${shown(FULL_CENTS)}`,
  ]);
  expect(refundMails()).toHaveLength(0);
});
