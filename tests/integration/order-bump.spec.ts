import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, PLANS, type Plan } from '@contracts/plans';
import { FakeGa4MpServer } from '../fakes/ga4-mp-server';
import { SmtpSink } from '../fakes/smtp-sink';
import { clientAddresses, outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';
import { adminCreate } from './support/admin';

/**
 * The order bump (site.json offers.bump) through the sandbox and the real worker: the server
 * prices the add-on from the catalogue and charges it with the first payment (one charge of a
 * one-time plan and the add-on; the subscription's first invoice only), the receipt and GA4's
 * purchase list both lines, the admin refunds the add-on alone without ending the membership,
 * and the dashboard counts the take rate per plan. Prices and names come from the site folder.
 */
const BUMP = OFFERS.bump as Plan;
const ONE_TIME = PLANS.find((p) => p.kind === 'one-time' && !p.instalments && p.id !== BUMP.id) as Plan;
const STANDARD = OFFERS.default;
const cents = (plan: Plan) => toMinorUnits(plan.amount, CURRENCY);
const money = (amountCents: number) => formatMoney(amountCents, CURRENCY, { decimals: 'always' });
/** The add-on sold alone is refused, naming the plans of that payment path a checkout does sell on their own. */
const addOnRefusal = (kind: Plan['kind']) =>
  `"${BUMP.name}" is only sold as an add-on to another plan. Choose one of: ${PLANS.filter((p) => p.kind === kind && p.id !== BUMP.id)
    .map((p) => `"${p.name}"`)
    .join(', ')}.`;

const ADMIN = { email: 'bump.admin@example.com', password: 'a long enough bump password' };
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };

const ga4 = new FakeGa4MpServer();
const smtp = new SmtpSink();
let stack: Stack;
let cookie = '';
let csrfToken = '';
let counter = 0;
let buyer = '';

const http = () => request(stack.url);
const client = clientAddresses(91);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', client()).set('Cookie', '_ga=GA1.1.99.1700000000').send(body);
const admin = (path: string) => http().get(path).set('cookie', cookie);
const order = async () => (await stack.db.query(`SELECT * FROM orders WHERE email = $1 ORDER BY created_at DESC`, [buyer]))[0];
const party = () => ({ email: buyer, name: 'Bea Bump', source: 'clear' });

async function settled(): Promise<{ id: string; amount_cents: number }> {
  await waitFor(async () => Object.keys((await order())?.paid_effects ?? {}).length === 4, 'the paid effects');
  await outboxDrained(stack.db);
  const [payment] = await stack.db.query(`SELECT id, amount_cents FROM payments WHERE order_id = $1 AND sequence = 1`, [(await order()).id]);
  return payment;
}

async function buyOneTime(bump: boolean): Promise<{ id: string; amount_cents: number }> {
  const res = await post('/api/create-payment-intent', { ...party(), plan: ONE_TIME.name, amount: ONE_TIME.amount, bump }).expect(200);
  // As checkout records it with a Stripe live key: only a live order reaches GA4 and the dashboard's sales.
  await stack.db.query(`UPDATE orders SET livemode = true WHERE email = $1`, [buyer]);
  await post('/api/sandbox/confirm-payment', { clientSecret: res.body.clientSecret, card, returnUrl: `${stack.url}/success` }).expect(200);
  return settled();
}

async function buyStandard(bump: boolean): Promise<{ id: string; amount_cents: number }> {
  const setup = await post('/api/create-setup-intent', { ...party(), bump }).expect(200);
  await stack.db.query(`UPDATE orders SET livemode = true WHERE email = $1`, [buyer]);
  await post('/api/sandbox/confirm-setup', { clientSecret: setup.body.clientSecret, card, returnUrl: `${stack.url}/checkout` }).expect(200);
  await post('/api/confirm-subscription', {
    ...party(),
    setupIntentId: setup.body.clientSecret.split('_secret_')[0],
    plan: STANDARD.name,
    amount: STANDARD.amount,
  }).expect(200);
  return settled();
}

beforeAll(async () => {
  stack = await startStack({
    SANDBOX_WEBHOOK_SECRET: 'whsec_bumpsecret0000000000000000000',
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    GA4_MP_URL: await ga4.start(),
    GA4_MEASUREMENT_ID: 'G-BUMP1',
    GA4_API_SECRET: 'ga4-secret',
    SMTP_URL: await smtp.start(),
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    RATE_LIMIT_CONFIRMATIONS_PER_ORDER: '1000',
  });
  await stack.db.query(`TRUNCATE admin_accounts, admin_sessions, admin_audit_log CASCADE`);
  expect(await adminCreate(ADMIN.email, ADMIN.password)).toMatchObject({ code: 0 });
  const login = await http().post('/api/admin/login').send(ADMIN).expect(200);
  cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? [])[0].split(';')[0];
  csrfToken = login.body.csrfToken;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all([ga4.stop(), smtp.stop()]);
});

beforeEach(async () => {
  await outboxDrained(stack.db);
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects CASCADE');
  ga4.reset();
  smtp.reset();
  buyer = `bump-buyer-${++counter}@example.com`;
});

it('charges a one-time plan and the ticked add-on in one charge priced from the catalogue; receipt and GA4 list both', async () => {
  const payment = await buyOneTime(true);
  const total = cents(ONE_TIME) + cents(BUMP);
  expect(payment.amount_cents).toBe(total);
  const charges = await stack.db.query(`SELECT amount_cents FROM sandbox_objects WHERE object = 'payment_intent'`);
  expect(charges).toEqual([{ amount_cents: total }]);
  expect(await order()).toMatchObject({ plan_id: ONE_TIME.id, amount_cents: total, bump_plan_id: BUMP.id, bump_amount_cents: cents(BUMP) });

  const [receipt] = smtp.messages.filter((m) => /receipt/i.test(m.subject ?? ''));
  expect(receipt.text).toContain(`Plan: ${ONE_TIME.name}`);
  expect(receipt.text).toContain(`Add-on: ${BUMP.name}: ${money(cents(BUMP))}`);
  expect(receipt.text).toContain(money(total));

  await waitFor(async () => ga4.events().some((e) => e.event.name === 'purchase'), 'the GA4 purchase');
  const purchase = ga4.events().find((e) => e.event.name === 'purchase')!.event.params as { value: number; items: object[] };
  expect(purchase.value).toBe(ONE_TIME.amount + BUMP.amount);
  expect(purchase.items).toEqual([
    expect.objectContaining({ item_id: ONE_TIME.id, price: ONE_TIME.amount }),
    expect.objectContaining({ item_id: BUMP.id, item_name: BUMP.name, price: BUMP.amount }),
  ]);
});

it("never takes the browser's total: the amount must be the plan's price, and unticked the add-on is only recorded as offered", async () => {
  const refused = await post('/api/create-payment-intent', { ...party(), plan: ONE_TIME.name, amount: ONE_TIME.amount + BUMP.amount, bump: true });
  expect(refused.status).toBe(400);
  expect(refused.body.message).toContain(`does not match the price of "${ONE_TIME.name}"`);
  const bumpAlone = await post('/api/create-payment-intent', { ...party(), plan: BUMP.name, amount: BUMP.amount, bump: true }).expect(400);
  expect(bumpAlone.body.message).toBe(addOnRefusal('one-time'));

  const payment = await buyOneTime(false);
  expect(payment.amount_cents).toBe(cents(ONE_TIME));
  expect(await order()).toMatchObject({ amount_cents: cents(ONE_TIME), bump_plan_id: BUMP.id, bump_amount_cents: null });
  const [receipt] = smtp.messages.filter((m) => /receipt/i.test(m.subject ?? ''));
  expect(receipt.text).not.toContain('Add-on');
});

it('refuses a checkout of the add-on on its own with a 400 that says so, as it refuses an unknown plan, and records no order', async () => {
  const alone = await post('/api/create-payment-intent', { ...party(), plan: BUMP.name, amount: BUMP.amount }).expect(400);
  expect(alone.body.message).toBe(addOnRefusal('one-time'));
  const setup = await post('/api/create-setup-intent', { ...party(), planId: BUMP.id }).expect(400);
  expect(setup.body.message).toBe(addOnRefusal('subscription'));
  expect(await stack.db.query(`SELECT id FROM orders WHERE email = $1`, [buyer])).toHaveLength(0);
});

it("charges the add-on on a subscription's first invoice only: the renewals charge the plan", async () => {
  const payment = await buyStandard(true);
  expect(payment.amount_cents).toBe(cents(STANDARD) + cents(BUMP));
  const [subscription] = await stack.db.query(`SELECT amount_cents, invoice_item_cents FROM sandbox_objects WHERE object = 'subscription'`);
  expect(subscription).toEqual({ amount_cents: cents(STANDARD), invoice_item_cents: cents(BUMP) });
  const [receipt] = smtp.messages.filter((m) => /receipt/i.test(m.subject ?? ''));
  expect(receipt.text).toContain(`Add-on: ${BUMP.name}: ${money(cents(BUMP))}`);
});

it('refunds the add-on alone at its price: the membership keeps its access', async () => {
  const payment = await buyStandard(true);
  const { id: orderId } = await order();
  const listed = (await admin(`/api/admin/billing/orders?q=${orderId}`).expect(200)).body.items[0];
  expect(listed.bump).toEqual({ planId: BUMP.id, amountCents: cents(BUMP) });

  const res = await http()
    .post(`/api/admin/billing/payments/${payment.id}/refunds`)
    .set('cookie', cookie)
    .set('x-csrf-token', csrfToken)
    .send({ requestKey: randomUUID(), line: 'bump' })
    .expect(200);
  expect(res.body).toMatchObject({ amountCents: cents(BUMP), status: 'succeeded' });
  await outboxDrained(stack.db);
  expect(await stack.db.query(`SELECT amount_cents, ends_access FROM refunds WHERE order_id = $1`, [orderId])).toEqual([
    { amount_cents: cents(BUMP), ends_access: false },
  ]);
  expect(await stack.db.query(`SELECT amount_cents FROM sandbox_objects WHERE object = 'refund'`)).toEqual([{ amount_cents: cents(BUMP) }]);
  expect(await order()).toMatchObject({ access_revoked_at: null, status: 'active' });
  expect(await stack.db.query(`SELECT status FROM memberships WHERE email_normalized = $1`, [buyer])).toEqual([{ status: 'active' }]);

  // An order without the add-on has none to refund: a readable 400, nothing refunded.
  buyer = `bump-buyer-${++counter}@example.com`;
  const plain = await buyStandard(false);
  const refused = await http()
    .post(`/api/admin/billing/payments/${plain.id}/refunds`)
    .set('cookie', cookie)
    .set('x-csrf-token', csrfToken)
    .send({ requestKey: randomUUID(), line: 'bump' })
    .expect(400);
  expect(refused.body.message).toBe('This payment did not include an add-on to refund.');
});

it("shows the add-on's take rate per plan on the dashboard: paid orders with it, of those offered it", async () => {
  await buyOneTime(true);
  buyer = `bump-buyer-${++counter}@example.com`;
  await buyOneTime(false);
  buyer = `bump-buyer-${++counter}@example.com`;
  await buyStandard(true);
  const from = new Date(Date.now() - 86_400_000).toISOString();
  const to = new Date(Date.now() + 86_400_000).toISOString();
  const report = (await admin(`/api/admin/funnel?from=${from}&to=${to}`).expect(200)).body;
  const row = (planId: string) => report.byPlan.find((r: { planId: string }) => r.planId === planId);
  expect(row(ONE_TIME.id)).toMatchObject({ purchases: 2, bumpOffered: 2, bumpTaken: 1 });
  expect(row(STANDARD.id)).toMatchObject({ purchases: 1, bumpOffered: 1, bumpTaken: 1 });
});
