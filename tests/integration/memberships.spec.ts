import request from 'supertest';
import { AppConfig } from '@core/config/app-config';
import { OFFERS, planOf } from '@contracts/plans';
import { FakeMembersArea } from '../fakes/members-area-server';
import { adminSignIn, AdminSession } from './support/admin';
import { clientAddresses, outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

/** The site's one-time plan; prices and names come from the site folder, so a seller's change keeps this green. */
const FULL_PAYMENT = planOf('full-payment');

/**
 * Who may enter the members area: one membership per buyer and product, moved by the orders'
 * lifecycle through the real worker and the sandbox clock, and a signed webhook (Standard
 * Webhooks) to the members area on each access granted and ended, once each even when the members
 * area fails first. The fake members area applies a notice only if its sequence is newer.
 * The sandbox makes test orders, which reach the members area only with
 * MEMBERSHIP_WEBHOOK_TEST_ORDERS=true: this stack starts with it, and the tests of test orders
 * turn it off in the running worker, as a worker started without it would run.
 */
const SECRET = `whsec_${Buffer.from('members-area-test-secret-0123456').toString('base64')}`;
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const area = new FakeMembersArea(SECRET);
let stack: Stack;
let admin: AdminSession;
let counter = 0;
const nextClient = clientAddresses(12);

const post = (path: string, body: object) => request(stack.url).post(path).set('X-Forwarded-For', nextClient()).send(body);
const advance = (advanceDays: number) => post('/api/sandbox/clock', { advanceDays }).expect(200);
const membership = async (email: string) =>
  (await stack.db.query(`SELECT id, status, product, access_changes FROM memberships WHERE email_normalized = $1`, [email]))[0];
const deliveriesFor = (email: string) => area.accepted().filter((d) => d.body.data.email === email);

beforeAll(async () => {
  stack = await startStack({
    MEMBERSHIP_WEBHOOK_URL: await area.start(),
    MEMBERSHIP_WEBHOOK_SECRET: SECRET,
    MEMBERSHIP_WEBHOOK_TEST_ORDERS: 'true',
    SANDBOX_WEBHOOK_SECRET: 'whsec_membershipssecret0000000000',
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    JOB_RETRY_HORIZON_S: '120',
  });
  admin = await adminSignIn(stack.url, { email: 'members.admin@example.com', password: 'a members list admin password' });
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await area.stop();
});
beforeEach(async () => {
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects, memberships CASCADE');
  await stack.db.query('UPDATE sandbox_clock SET offset_seconds = 0');
  area.reset();
  testOrdersReachArea(true);
});

/** MEMBERSHIP_WEBHOOK_TEST_ORDERS as the worker reads it when it sends a notice. */
function testOrdersReachArea(on: boolean): void {
  stack.worker!.get(AppConfig).MEMBERSHIP_WEBHOOK_TEST_ORDERS = on;
}

async function subscribe(email: string): Promise<void> {
  const setup = await post('/api/create-setup-intent', { email, name: 'Mem Ber', source: 'clear' }).expect(200);
  const clientSecret: string = setup.body.clientSecret;
  await post('/api/sandbox/confirm-setup', { clientSecret, card, returnUrl: `${stack.url}/checkout?plan=standard` }).expect(200);
  await post('/api/confirm-subscription', {
    email,
    name: 'Mem Ber',
    source: 'clear',
    setupIntentId: clientSecret.split('_secret_')[0],
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  }).expect(200);
}

/** `live`: the order is recorded as live, as checkout records it with a Stripe live key (PaymentGateway.livemode). */
async function payOnce(email: string, plan: string, amount: number, { live = false } = {}): Promise<void> {
  const res = await post('/api/create-payment-intent', { email, name: 'One Time', source: 'clear', plan, amount }).expect(200);
  if (live) await stack.db.query(`UPDATE orders SET livemode = true WHERE email = $1 AND paid_at IS NULL`, [email]);
  await post('/api/sandbox/confirm-payment', { clientSecret: res.body.clientSecret, card, returnUrl: `${stack.url}/success` }).expect(200);
}

/** Refunds the buyer's first payment in full from admin. */
async function refundFirstPayment(email: string, requestKey: string): Promise<void> {
  const [payment] = await stack.db.query(
    `SELECT p.id FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.email = $1 AND p.sequence = 1`,
    [email],
  );
  await request(stack.url)
    .post(`/api/admin/billing/payments/${payment.id}/refunds`)
    .set('cookie', admin.cookie)
    .set('x-csrf-token', admin.csrfToken)
    .send({ requestKey })
    .expect(200);
}

it('grants access on the first payment and ends it when failed renewals cancel the subscription: told once each, signed', async () => {
  const email = `member-${++counter}@example.com`;
  area.failNext(1);
  await subscribe(email);
  await waitFor(async () => deliveriesFor(email).length === 1, 'access granted told');
  expect(await membership(email)).toMatchObject({ status: 'active', product: 'clear', access_changes: 1 });

  // The card fails from now on: past due keeps access (nothing told), the last retry ends it.
  await stack.db.query(
    `UPDATE sandbox_objects SET card = '{"last4":"0341","outcome":"attaches_then_fails"}' WHERE object = 'subscription'`,
  );
  await advance(31);
  await waitFor(async () => (await membership(email)).status === 'past_due', 'past due');
  for (const days of [3, 2, 2]) await advance(days);
  await waitFor(async () => deliveriesFor(email).length === 2, 'access ended told');
  await outboxDrained(stack.db);

  expect(await membership(email)).toMatchObject({ status: 'ended', access_changes: 2 });
  const [granted, ended] = deliveriesFor(email);
  expect(granted.body).toMatchObject({
    type: 'membership.access_granted',
    data: { email, name: 'Mem Ber', product: 'clear', status: 'active', plan: 'standard', livemode: false },
  });
  expect(ended.body).toMatchObject({ type: 'membership.access_ended', data: { email, product: 'clear', status: 'ended' } });
  expect([granted.body.data.sequence, ended.body.data.sequence]).toEqual([1, 2]);
  expect(area.deliveries.every((d) => d.signatureValid)).toBe(true);
  // The refused first attempt was retried with the same webhook-id; each change reached the area once.
  expect(area.deliveries.map((d) => d.answered)).toEqual([503, 204, 204]);
  const { id } = await membership(email);
  expect(area.deliveries.map((d) => d.webhookId)).toEqual([1, 1, 2].map((change) => `membership-webhook:${id}:${change}`));
  expect(area.state(id)).toEqual({ sequence: 2, status: 'ended', access: false });
});

it('a full refund from admin ends access at once: told once, and no ended e-mail owed beside the refund', async () => {
  const email = `refunded-${++counter}@example.com`;
  await subscribe(email);
  await waitFor(async () => deliveriesFor(email).length === 1, 'access granted told');
  await refundFirstPayment(email, '6f1c9a52-3d0e-4c1b-9a7e-2b8f0d4e5a61');
  await waitFor(async () => deliveriesFor(email).length === 2, 'access ended told');
  await waitFor(
    async () => (await stack.db.query(`SELECT status FROM orders WHERE email = $1`, [email]))[0].status === 'canceled',
    'canceled',
  );
  await outboxDrained(stack.db);
  expect(await membership(email)).toMatchObject({ status: 'ended', access_changes: 2 });
  expect(deliveriesFor(email)[1].body).toMatchObject({ type: 'membership.access_ended', data: { status: 'ended' } });
  expect(await stack.db.query(`SELECT id FROM outbox WHERE job_name = 'membership-ended'`)).toEqual([]);
  expect(area.accepted()).toHaveLength(2);
});

it('a grant delivered only after the end leaves access closed: every notice is the membership when sent, applied only if newer', async () => {
  const email = `late-grant-${++counter}@example.com`;
  // The members area refuses the grant's attempts (change 1) until the end (change 2) has reached it.
  area.hold((body, webhookId) => body.data.email === email && webhookId.endsWith(':1'));
  await subscribe(email);
  await waitFor(async () => area.deliveries.some((d) => d.body.data.email === email && d.answered === 503), 'grant refused');
  await refundFirstPayment(email, '0b7e4c2a-9f61-4d8e-b3a5-7c2d1e0f9a84');
  await waitFor(async () => deliveriesFor(email).length === 1, 'access ended told');
  area.release();
  await waitFor(async () => deliveriesFor(email).length === 2, 'late grant told');
  await outboxDrained(stack.db);

  const { id } = await membership(email);
  const [ended, lateGrant] = deliveriesFor(email);
  expect(ended).toMatchObject({
    webhookId: `membership-webhook:${id}:2`,
    body: { type: 'membership.access_ended', data: { status: 'ended', sequence: 2 } },
    effect: 'applied',
  });
  // Sent after the end, the grant's notice says what the membership is then: even a receiver that
  // applies every notice in arrival order ends closed, and one that checks the sequence drops it.
  expect(lateGrant).toMatchObject({
    webhookId: `membership-webhook:${id}:1`,
    body: { type: 'membership.access_ended', data: { status: 'ended', sequence: 2 } },
    effect: 'stale',
  });
  expect(area.state(id)).toEqual({ sequence: 2, status: 'ended', access: false });
  expect(area.deliveries.every((d) => d.signatureValid)).toBe(true);
});

it('keeps one membership per buyer and product: a second order of it changes nothing told; an instalment plan paid in full stays active', async () => {
  const email = `instalments-${++counter}@example.com`;
  await payOnce(email, planOf('payment-plan').name, planOf('payment-plan').amount);
  await waitFor(async () => deliveriesFor(email).length === 1, 'access granted told');
  await payOnce(email, FULL_PAYMENT.name, FULL_PAYMENT.amount);
  await waitFor(
    async () => (await stack.db.query(`SELECT id FROM orders WHERE email = $1 AND paid_at IS NOT NULL`, [email])).length === 2,
    'paid',
  );
  for (let month = 0; month < 4; month++) await advance(31);
  await waitFor(
    async () =>
      (await stack.db.query(`SELECT subscription_state FROM orders WHERE plan_id = 'payment-plan' AND email = $1`, [email]))[0]
        ?.subscription_state === 'canceled',
    'schedule ended',
  );
  await outboxDrained(stack.db);
  expect(await stack.db.query(`SELECT status FROM memberships WHERE email_normalized = $1`, [email])).toEqual([{ status: 'active' }]);
  expect(deliveriesFor(email).map((d) => d.body.type)).toEqual(['membership.access_granted']);

  // Another product is another membership.
  await payOnce(email, planOf('blackcard-vip').name, planOf('blackcard-vip').amount);
  await waitFor(async () => deliveriesFor(email).length === 2, 'second product granted');
  expect(deliveriesFor(email)[1].body.data).toMatchObject({ product: 'blackcard', plan: 'blackcard-vip' });
});

it('a test order grants no access without MEMBERSHIP_WEBHOOK_TEST_ORDERS=true; with it, its notice says livemode false; a live order always', async () => {
  testOrdersReachArea(false);
  const tester = `tester-${++counter}@example.com`;
  await payOnce(tester, FULL_PAYMENT.name, FULL_PAYMENT.amount);
  await waitFor(async () => (await membership(tester))?.status === 'active', 'test membership');
  const live = `live-${++counter}@example.com`;
  await payOnce(live, FULL_PAYMENT.name, FULL_PAYMENT.amount, { live: true });
  await waitFor(async () => deliveriesFor(live).length === 1, 'live access granted told');
  await outboxDrained(stack.db);
  // The admin's list still has the test membership; the members area never heard of it.
  expect(deliveriesFor(tester)).toEqual([]);
  expect(area.state((await membership(tester)).id)).toBeUndefined();
  expect(deliveriesFor(live)[0].body).toMatchObject({ type: 'membership.access_granted', data: { status: 'active', livemode: true } });

  testOrdersReachArea(true);
  const staging = `staging-${++counter}@example.com`;
  await payOnce(staging, FULL_PAYMENT.name, FULL_PAYMENT.amount);
  await waitFor(async () => deliveriesFor(staging).length === 1, 'test access granted told');
  expect(deliveriesFor(staging)[0].body).toMatchObject({ type: 'membership.access_granted', data: { status: 'active', livemode: false } });
});

it('a buyer with test access who then pays for real is granted anew, live', async () => {
  testOrdersReachArea(false);
  const email = `test-then-live-${++counter}@example.com`;
  await payOnce(email, FULL_PAYMENT.name, FULL_PAYMENT.amount);
  await waitFor(async () => (await membership(email))?.status === 'active', 'test membership');
  await payOnce(email, planOf('payment-plan').name, planOf('payment-plan').amount, { live: true });
  await waitFor(async () => deliveriesFor(email).length === 1, 'live access granted told');
  await outboxDrained(stack.db);
  expect(deliveriesFor(email).map((d) => d.body)).toMatchObject([
    { type: 'membership.access_granted', data: { status: 'active', plan: 'payment-plan', livemode: true, sequence: 2 } },
  ]);
});

it('turned off, the setting still ends test access the members area was told of, and tells nothing of test access it never heard of', async () => {
  const told = `told-${++counter}@example.com`;
  await payOnce(told, FULL_PAYMENT.name, FULL_PAYMENT.amount);
  await waitFor(async () => deliveriesFor(told).length === 1, 'test access granted told');
  testOrdersReachArea(false);
  const untold = `untold-${++counter}@example.com`;
  await payOnce(untold, FULL_PAYMENT.name, FULL_PAYMENT.amount);
  await waitFor(async () => (await membership(untold))?.status === 'active', 'untold membership');

  await refundFirstPayment(told, '2d4f6a8c-1e3b-4c5d-9f7a-0b2c4d6e8f10');
  await refundFirstPayment(untold, '3e5a7b9d-2f4c-4d6e-8a0b-1c3d5e7f9a21');
  await waitFor(async () => (await membership(untold))?.status === 'ended', 'untold membership ended');
  await waitFor(async () => deliveriesFor(told).length === 2, 'test access ended told');
  await outboxDrained(stack.db);
  expect(deliveriesFor(told)[1].body).toMatchObject({ type: 'membership.access_ended', data: { status: 'ended', livemode: false } });
  expect(area.state((await membership(told)).id)).toMatchObject({ access: false });
  expect(deliveriesFor(untold)).toEqual([]);
});

it('lists memberships for admins only, filtered by status, and exports them as CSV with an audit entry', async () => {
  const active = `list-active-${++counter}@example.com`;
  await payOnce(active, FULL_PAYMENT.name, FULL_PAYMENT.amount);
  await waitFor(async () => (await membership(active))?.status === 'active', 'membership');

  await request(stack.url).get('/api/admin/members').expect(401);
  const list = await request(stack.url).get('/api/admin/members?status=active&q=list-active').set('cookie', admin.cookie).expect(200);
  expect(list.body).toMatchObject({
    total: 1,
    page: 1,
    items: [{ email: active, product: 'clear', status: 'active', planId: 'full-payment' }],
  });
  const none = await request(stack.url).get('/api/admin/members?status=ended').set('cookie', admin.cookie).expect(200);
  expect(none.body.total).toBe(0);
  const bad = await request(stack.url).get('/api/admin/members?status=frozen').set('cookie', admin.cookie).expect(400);
  expect(JSON.stringify(bad.body)).toContain('status must be one of: active, canceling, past_due, paused, ended');

  await request(stack.url).get('/api/admin/members/export.csv').expect(401);
  const csv = await request(stack.url).get('/api/admin/members/export.csv?status=active').set('cookie', admin.cookie).expect(200);
  expect(csv.headers['content-type']).toContain('text/csv');
  const lines = csv.text.trim().split(/\r?\n/);
  expect(lines[0]).toBe('id,email,name,product,status,plan,order_id,granted_at,ended_at,updated_at');
  expect(lines.filter((l) => l.includes(active))).toHaveLength(1);
  expect(await stack.db.query(`SELECT target FROM admin_audit_log WHERE action = 'members.export-csv' ORDER BY at DESC LIMIT 1`)).toEqual([
    { target: 'members:1 filtered' },
  ]);
});
