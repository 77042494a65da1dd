import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { owe } from '@core/queue/owe';
import { JOBS } from '@contracts/jobs';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { FakeGa4MpServer } from '../fakes/ga4-mp-server';
import { SmtpSink } from '../fakes/smtp-sink';
import { clientAddresses, outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';
import { adminCreate } from './support/admin';

/** Plans and prices from the site folder, so a seller's price change or rename keeps this green. */
const FULL_PAYMENT = planOf('full-payment');
const FULL_CENTS = toMinorUnits(FULL_PAYMENT.amount, CURRENCY);
const STANDARD_CENTS = toMinorUnits(OFFERS.default.amount, CURRENCY);

/**
 * The admin's orders screen and refunds through the sandbox and the real worker: a refund
 * request is made once per key (a double click, a retried request, a retried job change
 * nothing), refunds the payment at the sandbox once, and has each of its effects once: the
 * buyer's e-mail, the affiliate commission reversal and GA4's refund event (live orders). A full
 * refund of a membership ends its access and cancels its subscription at once.
 */
const ADMIN = { email: 'refunds.admin@example.com', password: 'a long enough refunds password' };
const card = (number: string) => ({ number, expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' });
const COOKIES = '_ga=GA1.1.1234567890.1700000000';

const affiliate = new FakeAffiliateServer();
const ga4 = new FakeGa4MpServer();
const smtp = new SmtpSink();
let stack: Stack;
let cookie = '';
let csrfToken = '';
let counter = 0;
let buyer = '';

const http = () => request(stack.url);
const client = clientAddresses(78);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', client()).set('Cookie', COOKIES).send(body);
const adminGet = (path: string) => http().get(path).set('cookie', cookie);
const refund = (paymentId: string, body: object) =>
  http().post(`/api/admin/billing/payments/${paymentId}/refunds`).set('cookie', cookie).set('x-csrf-token', csrfToken).send(body);

const order = async () => (await stack.db.query(`SELECT * FROM orders WHERE email = $1`, [buyer]))[0];
const refundsOf = async (orderId: string) =>
  stack.db.query(`SELECT id, amount_cents, status, reason, ends_access, effects FROM refunds WHERE order_id = $1 ORDER BY created_at`, [
    orderId,
  ]);
const sandboxRefunds = async (orderId: string) =>
  stack.db.query(`SELECT id, amount_cents, refunded_id FROM sandbox_objects WHERE object = 'refund' AND order_id = $1`, [orderId]);
const refundMails = () => smtp.messages.filter((m) => /refund/i.test(m.subject ?? ''));

/** A paid live order with a referral whose paid effects have settled; resolves with its first payment's id. */
async function buyOneTime(): Promise<string> {
  const res = await post('/api/create-payment-intent', {
    email: buyer,
    name: 'Rita <Refund>',
    source: 'clear',
    referral: 'partner9',
    plan: FULL_PAYMENT.name,
    amount: FULL_PAYMENT.amount,
  }).expect(200);
  // As checkout records it with a Stripe live key: only a live order's refund reverses a sale and reaches GA4.
  await stack.db.query(`UPDATE orders SET livemode = true WHERE email = $1`, [buyer]);
  await post('/api/sandbox/confirm-payment', {
    clientSecret: res.body.clientSecret,
    card: card('4242424242424242'),
    returnUrl: `${stack.url}/success`,
  }).expect(200);
  return settledPayment();
}

async function buyStandard(): Promise<string> {
  const setup = await post('/api/create-setup-intent', { email: buyer, name: 'Sam Member', source: 'clear', referral: 'partner9' }).expect(
    200,
  );
  await stack.db.query(`UPDATE orders SET livemode = true WHERE email = $1`, [buyer]);
  await post('/api/sandbox/confirm-setup', {
    clientSecret: setup.body.clientSecret,
    card: card('4242424242424242'),
    returnUrl: `${stack.url}/checkout`,
  }).expect(200);
  await post('/api/confirm-subscription', {
    email: buyer,
    name: 'Sam Member',
    source: 'clear',
    setupIntentId: setup.body.clientSecret.split('_secret_')[0],
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  }).expect(200);
  return settledPayment();
}

async function settledPayment(): Promise<string> {
  await waitFor(async () => Object.keys((await order())?.paid_effects ?? {}).length === 4, 'the paid effects');
  await outboxDrained(stack.db);
  const [payment] = await stack.db.query(`SELECT id FROM payments WHERE order_id = $1`, [(await order()).id]);
  return payment.id;
}

/** Waits until the refund's four effects are recorded and nothing is owed any more. */
async function effectsSettled(orderId: string, count = 1): Promise<void> {
  await waitFor(async () => {
    const rows = await refundsOf(orderId);
    return rows.length === count && rows.every((r: { effects: object }) => Object.keys(r.effects).length === 4);
  }, 'the refund effects');
  await outboxDrained(stack.db);
}

beforeAll(async () => {
  stack = await startStack({
    SANDBOX_WEBHOOK_SECRET: 'whsec_refundssecret00000000000000',
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    AFFILIATE_API_URL: await affiliate.start(),
    AFFILIATE_API_KEY: 'affiliate-key',
    GA4_MP_URL: await ga4.start(),
    GA4_MEASUREMENT_ID: 'G-REFUNDS1',
    GA4_API_SECRET: 'ga4-secret',
    SMTP_URL: await smtp.start(),
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    RATE_LIMIT_CONFIRMATIONS_PER_ORDER: '1000',
    JOB_RETRY_HORIZON_S: '120',
  });
  await stack.db.query(`TRUNCATE admin_accounts, admin_sessions, admin_audit_log CASCADE`);
  expect(await adminCreate(ADMIN.email, ADMIN.password)).toMatchObject({ code: 0 });
  const login = await http().post('/api/admin/login').send(ADMIN).expect(200);
  cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? [])[0].split(';')[0];
  csrfToken = login.body.csrfToken;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all([affiliate.stop(), ga4.stop(), smtp.stop()]);
});

beforeEach(async () => {
  await outboxDrained(stack.db);
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects CASCADE');
  for (const fake of [affiliate, ga4, smtp]) fake.reset();
  buyer = `refund-buyer-${++counter}@example.com`;
});

it('refuses the orders list and a refund without an admin session (401), and a refund without the CSRF token (403)', async () => {
  const paymentId = randomUUID();
  expect((await http().get('/api/admin/billing/orders').expect(401)).body.message).toBe('Please sign in as an admin to continue.');
  await http().post(`/api/admin/billing/payments/${paymentId}/refunds`).send({ requestKey: randomUUID() }).expect(401);
  const res = await http()
    .post(`/api/admin/billing/payments/${paymentId}/refunds`)
    .set('cookie', cookie)
    .send({ requestKey: randomUUID() })
    .expect(403);
  expect(res.body.message).toBe('Missing or invalid CSRF token. Reload the page and try again.');
  expect(await stack.db.query(`SELECT 1 FROM refunds`)).toHaveLength(0);
});

it('lists orders newest first with their payments, found by part of the e-mail or by the order id', async () => {
  await buyOneTime();
  const { id } = await order();
  const byEmail = await adminGet(`/api/admin/billing/orders?q=${encodeURIComponent(buyer.slice(0, 16).toUpperCase())}`).expect(200);
  expect(byEmail.body).toMatchObject({ total: 1, page: 1, items: [{ id, email: buyer, planId: 'full-payment', testOrder: false }] });
  expect(byEmail.body.items[0].payments).toEqual([
    expect.objectContaining({ sequence: 1, amountCents: FULL_CENTS, refundedCents: 0, refundableCents: FULL_CENTS, refunds: [] }),
  ]);
  expect((await adminGet(`/api/admin/billing/orders?q=${id}`).expect(200)).body.items.map((o: { id: string }) => o.id)).toEqual([id]);
  expect((await adminGet('/api/admin/billing/orders?q=nobody-has-this').expect(200)).body).toMatchObject({ total: 0, items: [] });
  expect((await adminGet('/api/admin/billing/orders?pageSize=0').expect(400)).body.message).toBe('pageSize must be 1 or more');
});

it('refunds a payment in full once, whatever is repeated, with each effect once; a second key is a readable 400', async () => {
  const paymentId = await buyOneTime();
  const { id: orderId, payment_intent_id: charge } = await order();
  const requestKey = randomUUID();
  // The first attempt at the affiliate service fails: the effects job is retried for real.
  affiliate.failNextRequests(1);
  const [first, doubleClick] = await Promise.all([refund(paymentId, { requestKey }), refund(paymentId, { requestKey })]);
  expect([first.status, doubleClick.status]).toEqual([200, 200]);
  expect(first.body).toMatchObject({ paymentId, amountCents: FULL_CENTS, status: 'succeeded', reason: 'refund' });
  expect(doubleClick.body.id).toBe(first.body.id);
  await effectsSettled(orderId);

  // The request sent again, and the effects job owed again (as after a lost job): nothing more happens.
  expect((await refund(paymentId, { requestKey }).expect(200)).body.id).toBe(first.body.id);
  await owe(stack.db, [{ name: JOBS.refundRecorded, data: { refundId: first.body.id } }]);
  await outboxDrained(stack.db);

  expect(await sandboxRefunds(orderId)).toEqual([{ id: expect.stringMatching(/^re_/), amount_cents: FULL_CENTS, refunded_id: charge }]);
  expect(await refundsOf(orderId)).toEqual([
    {
      id: first.body.id,
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
  const [{ provider_refund_id: providerRefundId }] = await stack.db.query(`SELECT provider_refund_id FROM refunds`);
  expect(exactlyOnceProblems(affiliate.refundsAtDoor(), [providerRefundId])).toEqual([]);
  expect(affiliate.refunds()[0].params).toMatchObject({
    email: buyer,
    amount: String(FULL_CENTS),
    event_id: providerRefundId,
    sale_event_id: charge,
  });
  const ga4Refunds = ga4.eventsAtDoor().filter((e) => e.identity.startsWith('refund:'));
  expect(exactlyOnceProblems(ga4Refunds, [`refund:${JSON.stringify(charge)}`])).toEqual([]);
  expect(ga4.events().find((e) => e.event.name === 'refund')?.event.params).toMatchObject({
    transaction_id: charge,
    value: FULL_PAYMENT.amount,
    currency: CURRENCY,
  });
  expect(refundMails()).toHaveLength(1);
  const mail = refundMails()[0];
  expect(mail.envelope.to).toEqual([buyer]);
  expect(mail.subject).toBe(`Your ${site.brand.programName} refund: ${formatMoney(FULL_CENTS, CURRENCY, { decimals: 'always' })}`);
  expect(mail.text).toContain(`${stack.url}/account`);
  expect(mail.html).toContain('Rita &#60;Refund&#62;');
  expect(await order()).toMatchObject({ refunded_cents: FULL_CENTS, access_revoked_at: expect.any(Date) });
  expect(await stack.db.query(`SELECT action, target FROM admin_audit_log WHERE action = 'payment.refund'`)).toEqual([
    { action: 'payment.refund', target: `payment:${paymentId}` },
  ]);

  const again = await refund(paymentId, { requestKey: randomUUID() }).expect(400);
  expect(again.body.message).toBe('This payment has already been refunded in full.');
  expect(await sandboxRefunds(orderId)).toHaveLength(1);
});

it('refunds part of a payment, keeps the access, and refuses more than is left with a readable 400', async () => {
  const paymentId = await buyOneTime();
  const { id: orderId } = await order();
  const res = await refund(paymentId, { requestKey: randomUUID(), amountCents: 10000 }).expect(200);
  expect(res.body).toMatchObject({ amountCents: 10000, status: 'succeeded' });
  await effectsSettled(orderId);
  const tooMuch = await refund(paymentId, { requestKey: randomUUID(), amountCents: FULL_CENTS - 10000 + 1 }).expect(400);
  expect(tooMuch.body.message).toBe(
    `A refund of this payment can be at most ${formatMoney(FULL_CENTS - 10000, CURRENCY, { decimals: 'always' })}, what is left of it.`,
  );
  expect((await refund(paymentId, { requestKey: 'not-a-uuid' }).expect(400)).body.message).toBe('requestKey must be a UUID');
  expect(await order()).toMatchObject({ refunded_cents: 10000, access_revoked_at: null });
  expect((await refundsOf(orderId))[0]).toMatchObject({
    ends_access: false,
    effects: expect.objectContaining({ 'cancel-subscription': 'skipped: access kept' }),
  });
  expect(affiliate.refunds()[0].params.amount).toBe('10000');
  expect(refundMails()[0].text).toContain(formatMoney(10000, CURRENCY, { decimals: 'always' }));

  const listed = (await adminGet(`/api/admin/billing/orders?q=${orderId}`).expect(200)).body.items[0];
  expect(listed.payments[0]).toMatchObject({
    refundedCents: 10000,
    refundableCents: FULL_CENTS - 10000,
    refunds: [expect.objectContaining({ amountCents: 10000, status: 'succeeded' })],
  });
});

it('records who asked for each of several refunds of one payment, and each audit entry its refund and amount', async () => {
  const paymentId = await buyOneTime();
  const { id: orderId } = await order();
  await stack.db.query(`DELETE FROM admin_audit_log WHERE action = 'payment.refund'`);
  const first = await refund(paymentId, { requestKey: randomUUID(), amountCents: 10000 }).expect(200);
  const second = await refund(paymentId, { requestKey: randomUUID(), amountCents: 2500 }).expect(200);
  await effectsSettled(orderId, 2);
  const [{ id: adminId }] = await stack.db.query(`SELECT id FROM admin_accounts WHERE email = $1`, [ADMIN.email]);

  expect(first.body).toMatchObject({ amountCents: 10000, requestedBy: ADMIN.email });
  expect(second.body).toMatchObject({ amountCents: 2500, requestedBy: ADMIN.email });
  expect(
    await stack.db.query(`SELECT id, amount_cents, requested_by_admin_id FROM refunds WHERE order_id = $1 ORDER BY created_at`, [orderId]),
  ).toEqual([
    { id: first.body.id, amount_cents: 10000, requested_by_admin_id: adminId },
    { id: second.body.id, amount_cents: 2500, requested_by_admin_id: adminId },
  ]);
  expect(await stack.db.query(`SELECT admin_id, target, details FROM admin_audit_log WHERE action = 'payment.refund' ORDER BY id`)).toEqual(
    [
      {
        admin_id: adminId,
        target: `payment:${paymentId}`,
        details: { refundId: first.body.id, amountCents: 10000, currency: CURRENCY.toLowerCase() },
      },
      {
        admin_id: adminId,
        target: `payment:${paymentId}`,
        details: { refundId: second.body.id, amountCents: 2500, currency: CURRENCY.toLowerCase() },
      },
    ],
  );

  // The orders screen names the admin of each refund; the dashboard's audit log shows each amount.
  const listed = (await adminGet(`/api/admin/billing/orders?q=${orderId}`).expect(200)).body.items[0];
  expect(listed.payments[0].refunds).toEqual([
    expect.objectContaining({ id: first.body.id, amountCents: 10000, requestedBy: ADMIN.email }),
    expect.objectContaining({ id: second.body.id, amountCents: 2500, requestedBy: ADMIN.email }),
  ]);
  const audit = (await adminGet('/api/admin/audit').expect(200)).body.items.filter(
    (e: { action: string }) => e.action === 'payment.refund',
  );
  expect(audit.map((e: { details: unknown }) => e.details)).toEqual([
    { refundId: second.body.id, amountCents: 2500, currency: CURRENCY.toLowerCase() },
    { refundId: first.body.id, amountCents: 10000, currency: CURRENCY.toLowerCase() },
  ]);
});

it("ends a membership's access on a full refund: its subscription is canceled at once, with the sandbox's event", async () => {
  const paymentId = await buyStandard();
  const { id: orderId, subscription_id: subscription } = await order();
  await refund(paymentId, { requestKey: randomUUID() }).expect(200);
  await effectsSettled(orderId);
  await waitFor(async () => (await order()).status === 'canceled', 'the order to learn its subscription ended');
  expect(await sandboxRefunds(orderId)).toEqual([expect.objectContaining({ amount_cents: STANDARD_CENTS, refunded_id: subscription })]);
  expect((await refundsOf(orderId))[0].effects['cancel-subscription']).toBe('done');
  expect(await stack.db.query(`SELECT status FROM sandbox_objects WHERE id = $1`, [subscription])).toEqual([{ status: 'canceled' }]);
  expect(await order()).toMatchObject({ access_revoked_at: expect.any(Date), refunded_cents: STANDARD_CENTS });
  const types = (await stack.db.query(`SELECT type FROM payment_events ORDER BY received_at`)).map((e: { type: string }) => e.type);
  expect(types).toEqual(expect.arrayContaining(['refund.created', 'charge.refunded', 'customer.subscription.deleted']));
});

it('answers an unknown payment with 404 and keeps test orders out of sales and analytics', async () => {
  expect((await refund(randomUUID(), { requestKey: randomUUID() }).expect(404)).body.message).toBe('There is no payment with this id.');
  const paymentId = await buyOneTime();
  await stack.db.query(`UPDATE orders SET livemode = false WHERE email = $1`, [buyer]);
  await refund(paymentId, { requestKey: randomUUID() }).expect(200);
  await effectsSettled((await order()).id);
  expect((await refundsOf((await order()).id))[0].effects).toMatchObject({
    'refund-email': 'sent',
    'affiliate-refund': 'skipped: test order',
    'ga4-refund': 'skipped: test order',
  });
  expect(affiliate.refundsAtDoor()).toHaveLength(0);
});
