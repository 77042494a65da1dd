import request from 'supertest';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { SmtpSink } from '../fakes/smtp-sink';
import { paymentsOf, paymentsSettled } from './support/payments';
import { outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

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
let buyer = '';

const http = () => request(stack.url);
const post = (path: string, body: object) =>
  http()
    .post(path)
    .set('X-Forwarded-For', `10.7.${Math.floor(++counter / 250)}.${counter % 250}`)
    .send(body);

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

const orderOf = async () => (await stack.db.query(`SELECT id, status, paid_effects FROM orders WHERE email = $1`, [buyer]))[0];
const payments = async () => paymentsOf(stack.db, (await orderOf()).id);

async function subscribeStandard(): Promise<void> {
  const setup = await post('/api/create-setup-intent', { email: buyer, name: 'Clock Member', source: 'clear' }).expect(200);
  const clientSecret: string = setup.body.clientSecret;
  await post('/api/sandbox/confirm-setup', { clientSecret, card, returnUrl: `${stack.url}/checkout?plan=standard` }).expect(200);
  await post('/api/confirm-subscription', {
    email: buyer,
    name: 'Clock Member',
    source: 'clear',
    setupIntentId: clientSecret.split('_secret_')[0],
    plan: 'Standard Access',
    amount: 97,
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
    expect(
      await stack.db.query(`SELECT id FROM outbox WHERE job_name = 'sandbox-webhook' AND payload::text LIKE '%subscription_cycle%'`),
    ).toHaveLength(month);
  }
  expect(new Date(now).getTime()).toBeGreaterThanOrEqual(before + 93 * 86_400_000);
  await paymentsSettled(stack.db, (await orderOf()).id, 4);
  // Moving the clock by less than a period bills nothing more.
  await post('/api/sandbox/clock', { advanceDays: 1 }).expect(200);
  await outboxDrained(stack.db);

  const rows = await payments();
  expect(rows.map((p: { sequence: number; amount_cents: number }) => [p.sequence, p.amount_cents])).toEqual([
    [1, 9700],
    [2, 9700],
    [3, 9700],
    [4, 9700],
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
