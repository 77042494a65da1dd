import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { JOBS } from '@contracts/jobs';
import { toMinorUnits } from '@contracts/money';
import { CURRENCY, planOf } from '@contracts/plans';
import { OrderLifecycle } from '@core/orders/order-lifecycle';
import { owe } from '@core/queue/owe';
import { SmtpSink } from '../fakes/smtp-sink';
import { adminCreate } from './support/admin';
import { paymentsOf, paymentsSettled } from './support/payments';
import { clientAddresses, outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

/**
 * An instalment plan stops charging when its access ends (a full refund, a lost dispute), when
 * its buyer is erased, and when the admin stops it, through the sandbox's clock and the real
 * worker: months later, no further instalment is charged and no further receipt sent. A partial
 * refund keeps the plan charging.
 */
const ADMIN = { email: 'instalments.admin@example.com', password: 'a long enough instalments password' };
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const smtp = new SmtpSink();
let stack: Stack;
let cookie = '';
let csrfToken = '';
let counter = 0;
let buyer = '';

const http = () => request(stack.url);
const client = clientAddresses(33);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', client()).send(body);
const adminPost = (path: string, body: object = {}) => http().post(path).set('cookie', cookie).set('x-csrf-token', csrfToken).send(body);
const refund = (paymentId: string, amountCents?: number) =>
  adminPost(`/api/admin/billing/payments/${paymentId}/refunds`, {
    requestKey: randomUUID(),
    ...(amountCents ? { amountCents } : {}),
  }).expect(200);
const stopInstalments = (orderId: string) => adminPost(`/api/admin/billing/orders/${orderId}/stop-instalments`);

const order = async () => (await stack.db.query(`SELECT * FROM orders WHERE email_normalized = $1 OR id::text = $2`, [buyer, orderId]))[0];
let orderId = '';
const scheduleOf = async (id: string) =>
  stack.db.query(`SELECT id, status FROM sandbox_objects WHERE object = 'subscription' AND order_id = $1`, [id]);
const receipts = () => smtp.messages.map((m) => (m.text ?? '').match(/Payment: (Payment \d of 6)/)?.[1]).filter(Boolean);
const refundEffects = async () => (await stack.db.query(`SELECT effects FROM refunds WHERE order_id = $1`, [orderId]))[0]?.effects ?? {};

/** Moves the sandbox's clock 40 days at a time, `times` times: each move is more than a month. */
async function monthsPass(times: number): Promise<void> {
  for (let i = 0; i < times; i++) await post('/api/sandbox/clock', { advanceDays: 40 }).expect(200);
  await outboxDrained(stack.db);
}

/** A 6-Month buyer's first instalment, paid at checkout, its later five scheduled; resolves with payment 1's id. */
async function buySixMonth(): Promise<string> {
  const intent = await post('/api/create-payment-intent', {
    email: buyer,
    name: 'Ina Stalment',
    source: 'clear',
    plan: planOf('6-month').name,
    amount: planOf('6-month').amount,
  }).expect(200);
  await post('/api/sandbox/confirm-payment', { clientSecret: intent.body.clientSecret, card, returnUrl: `${stack.url}/success` }).expect(
    200,
  );
  await waitFor(async () => Boolean((await order())?.instalment_schedule_id), 'instalments scheduled');
  orderId = (await order()).id;
  await waitFor(async () => Object.keys((await order()).paid_effects).length === 4, 'the paid effects');
  await outboxDrained(stack.db);
  const [payment] = await stack.db.query<Array<{ id: string }>>(`SELECT id FROM payments WHERE order_id = $1`, [orderId]);
  return payment.id;
}

/** Waits until the order's one refund has its four effects recorded and nothing is owed. */
async function refundSettled(): Promise<void> {
  await waitFor(async () => Object.keys(await refundEffects()).length === 4, 'the refund effects');
  await outboxDrained(stack.db);
}

beforeAll(async () => {
  stack = await startStack({
    SMTP_URL: await smtp.start(),
    SANDBOX_WEBHOOK_SECRET: 'whsec_instalmentstops000000000000',
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
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
  await smtp.stop();
});

beforeEach(async () => {
  await outboxDrained(stack.db);
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects CASCADE');
  await stack.db.query('UPDATE sandbox_clock SET offset_seconds = 0');
  smtp.reset();
  buyer = `instalment-stop-${++counter}@example.com`;
  orderId = '';
});

it('a 6-Month buyer refunded in full after payment 1 is charged nothing more, however far the clock moves', async () => {
  const paymentId = await buySixMonth();
  const [{ id: scheduleId }] = await scheduleOf(orderId);
  expect(await order()).toMatchObject({ instalment_schedule_id: scheduleId });
  await refund(paymentId);
  await refundSettled();
  expect(await refundEffects()).toMatchObject({ 'cancel-subscription': 'done', 'refund-email': 'sent' });
  expect(await scheduleOf(orderId)).toEqual([{ id: scheduleId, status: 'canceled' }]);

  await monthsPass(6);
  expect(await paymentsOf(stack.db, orderId)).toHaveLength(1);
  expect(receipts()).toEqual(['Payment 1 of 6']);
  expect(await stack.db.query(`SELECT key FROM side_effects WHERE kind = 'stop-instalments'`)).toEqual([
    { key: `stop-instalments:${scheduleId}` },
  ]);
});

it('a lost dispute of payment 1 stops the plan as a full refund does', async () => {
  const paymentId = await buySixMonth();
  await stack.api!.get(OrderLifecycle).disputeChanged({
    paymentId,
    providerDisputeId: 'dp_lost0000000000000001',
    outcome: 'lost',
    amountCents: toMinorUnits(planOf('6-month').amount, CURRENCY),
    currency: CURRENCY.toLowerCase(),
  });
  await refundSettled();
  expect(await refundEffects()).toMatchObject({ 'cancel-subscription': 'done', 'refund-email': 'skipped: dispute' });
  expect(await order()).toMatchObject({ access_revoked_at: expect.any(Date) });

  await monthsPass(6);
  expect(await paymentsOf(stack.db, orderId)).toHaveLength(1);
  expect(receipts()).toEqual(['Payment 1 of 6']);
});

it('a partial refund keeps the plan charging, every instalment with its receipt', async () => {
  const paymentId = await buySixMonth();
  await refund(paymentId, 5_000);
  await refundSettled();
  expect(await refundEffects()).toMatchObject({ 'cancel-subscription': 'skipped: access kept' });

  await monthsPass(6);
  await paymentsSettled(stack.db, orderId, 6);
  expect(receipts().sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `Payment ${n} of 6`));
  expect(await stack.db.query(`SELECT key FROM side_effects WHERE kind = 'stop-instalments'`)).toEqual([]);
});

it("the admin's 'Stop instalments' stops the plan after the payments made, once and audited", async () => {
  await buySixMonth();
  await monthsPass(1);
  await paymentsSettled(stack.db, orderId, 2);
  await http().post(`/api/admin/billing/orders/${orderId}/stop-instalments`).set('cookie', cookie).expect(403);

  const [first, doubleClick] = await Promise.all([stopInstalments(orderId), stopInstalments(orderId)]);
  expect([first.status, doubleClick.status]).toEqual([200, 200]);
  expect(first.body).toEqual({ orderId, instalmentsStoppedAt: expect.any(String) });
  expect(doubleClick.body).toEqual(first.body);
  await outboxDrained(stack.db);
  expect((await scheduleOf(orderId))[0].status).toBe('canceled');
  expect(await stack.db.query(`SELECT target FROM admin_audit_log WHERE action = 'order.stop-instalments'`)).toEqual([
    { target: `order:${orderId}` },
  ]);
  const listed = (await http().get(`/api/admin/billing/orders?q=${orderId}`).set('cookie', cookie).expect(200)).body.items[0];
  expect(listed).toMatchObject({ instalments: 6, instalmentsStoppedAt: first.body.instalmentsStoppedAt });

  await monthsPass(6);
  expect(await paymentsOf(stack.db, orderId)).toHaveLength(2);
  expect(receipts().sort()).toEqual(['Payment 1 of 6', 'Payment 2 of 6']);
  expect((await stopInstalments(randomUUID()).expect(404)).body.message).toBe('There is no order with this id.');
});

it('refuses to stop what is not a running instalment plan, readably', async () => {
  const paymentId = await buySixMonth();
  await refund(paymentId);
  await refundSettled();
  expect((await stopInstalments(orderId).expect(400)).body.message).toMatch(/access was ended by a refund or a lost dispute/);
  expect(await stack.db.query(`SELECT 1 FROM admin_audit_log WHERE target = $1`, [`order:${orderId}`])).toEqual([]);
});

it("an erased buyer's plan stops: nothing more is charged to the forgotten card", async () => {
  await buySixMonth();
  await adminPost('/api/admin/people/erase', { email: buyer }).expect(200);
  await outboxDrained(stack.db);
  expect((await scheduleOf(orderId))[0].status).toBe('canceled');
  expect(await order()).toMatchObject({ instalments_stopped_at: expect.any(Date) });
  // Stopped through the ledger, whether or not the customer's deletion ended it first.
  expect(await stack.db.query(`SELECT key, status FROM side_effects WHERE kind = 'stop-instalments'`)).toEqual([
    { key: `stop-instalments:${(await order()).instalment_schedule_id as string}`, status: 'done' },
  ]);

  await monthsPass(6);
  expect(await paymentsOf(stack.db, orderId)).toHaveLength(1);
});

it('schedule-instalments refuses an order whose access was revoked before its schedule was made', async () => {
  const paymentId = await buySixMonth();
  await refund(paymentId);
  await refundSettled();
  // As if the schedule had never been made (its job retrying while the refund went through).
  await stack.db.query(`DELETE FROM side_effects WHERE key = $1`, [`instalment-schedule:${orderId}`]);
  await stack.db.query(`DELETE FROM sandbox_objects WHERE object = 'subscription' AND order_id = $1`, [orderId]);
  await stack.db.query(`UPDATE orders SET instalment_schedule_id = NULL, subscription_id = NULL WHERE id = $1`, [orderId]);
  await owe(stack.db, [{ name: JOBS.scheduleInstalments, data: { orderId } }]);
  await outboxDrained(stack.db);

  expect(await scheduleOf(orderId)).toEqual([]);
  expect(
    await stack.db.query(`SELECT status, detail->>'reason' AS reason FROM side_effects WHERE key = $1`, [`instalment-schedule:${orderId}`]),
  ).toEqual([{ status: 'failed', reason: 'access revoked' }]);
  await monthsPass(2);
  expect(await paymentsOf(stack.db, orderId)).toHaveLength(1);
});
