import request from 'supertest';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { SmtpSink } from '../fakes/smtp-sink';
import { paymentsOf, paymentsSettled } from './support/payments';
import { clientAddresses, outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

/** The default plan's price in cents, from the site folder, so a seller's price change keeps this green. */
const STANDARD_CENTS = toMinorUnits(OFFERS.default.amount, CURRENCY);

/**
 * The sandbox's clock through the real worker: moving it forward renews active subscriptions
 * once per monthly period, each renewal a signed `invoice.paid` delivered by `sandbox-webhook`
 * and recorded as a payment with its own receipt.
 */
const SECRET = 'whsec_sandboxclocksecret000000000';
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const smtp = new SmtpSink();
let stack: Stack;
let counter = 0;
const nextClient = clientAddresses(7);
let buyer = '';

const http = () => request(stack.url);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', nextClient()).send(body);

beforeAll(async () => {
  stack = await startStack({
    SMTP_URL: await smtp.start(),
    SANDBOX_WEBHOOK_SECRET: SECRET,
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    JOB_RETRY_HORIZON_S: '120',
  });
});
afterAll(async () => {
  await stack?.stop();
  await smtp.stop();
});
beforeEach(async () => {
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects CASCADE');
  await stack.db.query('UPDATE sandbox_clock SET offset_seconds = 0');
  smtp.reset();
  buyer = `clock-buyer-${++counter}@example.com`;
});

const orderOf = async (email = buyer) =>
  (await stack.db.query(`SELECT id, status, paid_effects, subscription_id, subscription_state FROM orders WHERE email = $1`, [email]))[0];
const payments = async () => paymentsOf(stack.db, (await orderOf()).id);

const advance = async (advanceDays: number) => (await post('/api/sandbox/clock', { advanceDays }).expect(200)).body.now as string;
const mailsTo = (email: string) => smtp.messages.filter((m) => m.envelope.to.includes(email));
const subjects = (email: string) => mailsTo(email).map((m) => m.subject ?? '');

/** The saved card of the member's subscription becomes another test card, as 'Update card' makes it. */
async function switchCard(last4: '0341' | '4242'): Promise<void> {
  const outcome = last4 === '0341' ? 'attaches_then_fails' : 'succeeds';
  await stack.db.query(`UPDATE sandbox_objects SET card = $2 WHERE object = 'subscription' AND order_id = $1`, [
    (await orderOf()).id,
    JSON.stringify({ last4, outcome }),
  ]);
}

/** Pays the first instalment of a plan at checkout (the one-time path), and waits until the others are scheduled. */
async function buyInstalments(email: string, plan: string, amount: number): Promise<string> {
  const intent = await post('/api/create-payment-intent', { email, name: 'Instalment Buyer', source: 'clear', plan, amount }).expect(200);
  const clientSecret: string = intent.body.clientSecret;
  await post('/api/sandbox/confirm-payment', { clientSecret, card, returnUrl: `${stack.url}/success` }).expect(200);
  await waitFor(async () => Boolean((await orderOf(email))?.subscription_id), 'instalments scheduled');
  await outboxDrained(stack.db);
  return (await orderOf(email)).id;
}

async function subscribeStandard(): Promise<void> {
  const setup = await post('/api/create-setup-intent', { email: buyer, name: 'Clock Member', source: 'clear' }).expect(200);
  const clientSecret: string = setup.body.clientSecret;
  await post('/api/sandbox/confirm-setup', { clientSecret, card, returnUrl: `${stack.url}/checkout?plan=standard` }).expect(200);
  await post('/api/confirm-subscription', {
    email: buyer,
    name: 'Clock Member',
    source: 'clear',
    setupIntentId: clientSecret.split('_secret_')[0],
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  }).expect(200);
  await waitFor(async () => Object.keys((await orderOf())?.paid_effects ?? {}).length === 4, 'first payment settled');
  await outboxDrained(stack.db);
}

it('a standard member advanced three months gets three renewal payments and receipts, exactly once each', async () => {
  await subscribeStandard();
  const before = Date.now();
  let now = '';
  for (let month = 1; month <= 3; month++) {
    now = (await post('/api/sandbox/clock', { advanceDays: 31 }).expect(200)).body.now;
    // The renewal's event is stored when the clock answers.
    expect(await stack.db.query(`SELECT id FROM payment_events WHERE payload::text LIKE '%subscription_cycle%'`)).toHaveLength(month);
  }
  expect(new Date(now).getTime()).toBeGreaterThanOrEqual(before + 93 * 86_400_000);
  await paymentsSettled(stack.db, (await orderOf()).id, 4);
  // Moving the clock by less than a period bills nothing more.
  await post('/api/sandbox/clock', { advanceDays: 1 }).expect(200);
  await outboxDrained(stack.db);

  const rows = await payments();
  expect(rows.map((p: { sequence: number; amount_cents: number }) => [p.sequence, p.amount_cents])).toEqual([
    [1, STANDARD_CENTS],
    [2, STANDARD_CENTS],
    [3, STANDARD_CENTS],
    [4, STANDARD_CENTS],
  ]);
  // A sandbox order is a test order: no affiliate sale, but every payment's receipt.
  expect(rows[3].paid_effects).toMatchObject({ 'affiliate-sale': 'skipped: test order', 'receipt-email': 'sent' });
  const mails = smtp.deliveriesAtDoor();
  expect(exactlyOnceProblems(mails, [...new Set(mails.map((m) => m.identity))])).toEqual([]);
  expect(mails).toHaveLength(4);
  expect(smtp.messages.map((m) => (m.text ?? '').match(/Payment: (Payment \d)/)?.[1] ?? 'first').sort()).toEqual([
    'Payment 2',
    'Payment 3',
    'Payment 4',
    'first',
  ]);
  expect(await stack.db.query(`SELECT id FROM payment_events WHERE type = 'invoice.paid' AND applied_at IS NULL`)).toEqual([]);
});

it('refuses a clock move that is not a whole number of days from 1 to 366, readably', async () => {
  for (const advanceDays of [0, -3, 1.5, 367, 'ten']) {
    const res = await post('/api/sandbox/clock', { advanceDays }).expect(400);
    expect(JSON.stringify(res.body)).toMatch(/advanceDays must be/);
  }
  await post('/api/sandbox/clock', {}).expect(400);
  expect((await stack.db.query(`SELECT offset_seconds FROM sandbox_clock`))[0].offset_seconds).toBe('0');
});

it('charges each instalment plan in full, one charge a month with its own receipt, and nothing after the last', async () => {
  const plans = [
    { email: `six-${buyer}`, plan: planOf('6-month').name, amount: planOf('6-month').amount, count: 6 },
    { email: `three-${buyer}`, plan: planOf('payment-plan').name, amount: planOf('payment-plan').amount, count: 3 },
  ];
  const orders = [];
  for (const p of plans) orders.push(await buyInstalments(p.email, p.plan, p.amount));
  // Seven months and more: every instalment falls due, then each schedule ends.
  for (let month = 1; month <= 8; month++) await advance(31);
  for (const [i, p] of plans.entries()) await paymentsSettled(stack.db, orders[i], p.count);
  await advance(90);
  await outboxDrained(stack.db);

  for (const [i, p] of plans.entries()) {
    const rows = await paymentsOf(stack.db, orders[i]);
    expect(rows.map((r) => r.amount_cents)).toEqual(Array(p.count).fill(toMinorUnits(p.amount, CURRENCY)));
    const order = await orderOf(p.email);
    // The order stays paid; the schedule that charged it ended after its last charge.
    expect(order).toMatchObject({ status: 'succeeded', subscription_state: 'canceled' });
    const receipts = mailsTo(p.email).map((m) => (m.text ?? '').match(/Payment: (Payment \d of \d)/)?.[1]);
    expect(receipts.sort()).toEqual(Array.from({ length: p.count }, (_, n) => `Payment ${n + 1} of ${p.count}`));
    // Paid in full is no membership ended: no such e-mail.
    expect(subjects(p.email).filter((s) => /has ended/.test(s))).toEqual([]);
  }
  const mails = smtp.deliveriesAtDoor();
  expect(exactlyOnceProblems(mails, [...new Set(mails.map((m) => m.identity))])).toEqual([]);
  // Each schedule's end was looked at (the job ran) and found paid in full: no e-mail claimed.
  expect(await stack.db.query(`SELECT id FROM outbox WHERE job_name = 'membership-ended' AND completed_at IS NOT NULL`)).toHaveLength(2);
  expect(await stack.db.query(`SELECT key FROM side_effects WHERE kind = 'membership-ended-email'`)).toEqual([]);
});

it('a renewal on a failing card: one failed-payment e-mail, retries 3, 5 and 7 days later, then canceled and told once', async () => {
  await subscribeStandard();
  await switchCard('0341');
  await advance(31);
  await waitFor(async () => (await orderOf()).status === 'past_due', 'past due');
  await waitFor(
    async () =>
      subjects(buyer).some((s) => s.includes(`payment of ${formatMoney(STANDARD_CENTS, CURRENCY, { decimals: 'always' })} failed`)),
    'failed-payment e-mail',
  );
  // Two failed retries (days 3 and 5) ask nothing new of the buyer.
  await advance(3);
  await advance(2);
  await outboxDrained(stack.db);
  expect((await orderOf()).status).toBe('past_due');
  // The last retry (day 7) fails: the subscription is canceled and the member told.
  await advance(2);
  await waitFor(async () => (await orderOf()).status === 'canceled', 'canceled');
  await waitFor(async () => subjects(buyer).some((s) => /membership has ended/.test(s)), 'ended e-mail');
  // Nothing is charged or sent after the end.
  await advance(62);
  await outboxDrained(stack.db);
  expect((await payments()).map((p) => p.sequence)).toEqual([1]);
  const failed = (await stack.db.query(`SELECT type FROM payment_events WHERE type = 'invoice.payment_failed'`)).length;
  expect(failed).toBe(4);
  expect(subjects(buyer).filter((s) => /failed/.test(s))).toHaveLength(1);
  expect(subjects(buyer).filter((s) => /has ended/.test(s))).toHaveLength(1);
  expect(await stack.db.query(`SELECT id FROM payment_events WHERE applied_at IS NULL`)).toEqual([]);
});

it('a member who updates the card before a retry is charged by it and stays active', async () => {
  await subscribeStandard();
  await switchCard('0341');
  await advance(31);
  await waitFor(async () => (await orderOf()).status === 'past_due', 'past due');
  await waitFor(
    async () =>
      subjects(buyer).some((s) => s.includes(`payment of ${formatMoney(STANDARD_CENTS, CURRENCY, { decimals: 'always' })} failed`)),
    'failed-payment e-mail',
  );
  await switchCard('4242');
  await advance(3);
  await paymentsSettled(stack.db, (await orderOf()).id, 2);
  await waitFor(async () => (await orderOf()).status === 'active', 'active again');
  // The next month renews normally.
  await advance(31);
  await paymentsSettled(stack.db, (await orderOf()).id, 3);
  expect(subjects(buyer).filter((s) => /failed/.test(s))).toHaveLength(1);
  expect(subjects(buyer).filter((s) => /has ended/.test(s))).toEqual([]);
});
