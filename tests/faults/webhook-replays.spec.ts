import Stripe from 'stripe';
import { planOf } from '@contracts/plans';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { doorSummary, onceEach } from '../fakes/exactly-once';
import { SmtpSink } from '../fakes/smtp-sink';
import { ApiProcess, FaultStack } from './support/fault-stack';
import { everyOwedJobFinished, Outcome, postJson, waitFor } from './support/traffic';

/** The one-time plan these checkouts buy, from the site folder. */
const FULL_PAYMENT = planOf('full-payment');

/**
 * Payment webhooks delivered twice (at once), out of order and replayed with an old signature
 * timestamp, against the running API and worker on the offline sandbox, signed with the
 * configured secret. Stored once, never moved backwards, refused when stale; the paid side
 * effects (receipt e-mail, affiliate sale) happen once.
 */
const SECRET = 'whsec_faultsuitewebhooksecret00000';
const affiliate = new FakeAffiliateServer();
const smtp = new SmtpSink();
let stack: FaultStack;
let api: ApiProcess;

beforeAll(async () => {
  stack = await FaultStack.start('webhooks');
  await affiliate.start();
  stack.life.own('Fake affiliate service', () => affiliate.stop());
  await smtp.start();
  stack.life.own('SMTP sink', () => smtp.stop());
  const env = await stack.env({
    AFFILIATE_API_URL: affiliate.url,
    AFFILIATE_API_KEY: 'fault-key',
    SMTP_URL: smtp.url,
    SANDBOX_WEBHOOK_SECRET: SECRET,
    STRIPE_SECRET_KEY: '',
    VERIFY_REFRESH_MS: '600000',
  });
  api = await stack.startApi(env);
  stack.startWorker(env);
});

afterAll(() => stack?.undoAll());

function sendSigned(event: object, timestamp?: number): Promise<Outcome> {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, ...(timestamp && { timestamp }) });
  return postJson(`${api.url}/api/webhooks/stripe`, payload, { headers: { 'stripe-signature': header } });
}

const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => (await stack.db.query(sql, params)).rows;
const order = async () =>
  (await query<{ id: string; status: string; paid_effects: Record<string, string> }>(`SELECT id, status, paid_effects FROM orders`))[0];

it('stores duplicates once, never moves an order backwards, refuses a stale replay, and does each paid effect once', async () => {
  const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
  const intent = await postJson(`${api.url}/api/create-payment-intent`, {
    email: 'buyer@example.com',
    name: 'Fault Buyer',
    source: 'clear',
    referral: 'partner7',
    plan: FULL_PAYMENT.name,
    amount: FULL_PAYMENT.amount,
  });
  expect(intent.status).toBe(200);
  // Recorded as live, as checkout records an order with a Stripe live key: a sandbox (test) order makes no sale.
  await stack.db.query(`UPDATE orders SET livemode = true`);
  const clientSecret = (intent.body as { clientSecret: string }).clientSecret;
  const confirmed = await postJson(`${api.url}/api/sandbox/confirm-payment`, { clientSecret, card, returnUrl: `${api.url}/success` });
  expect(confirmed.status).toBe(200);
  await waitFor(async () => {
    const paid = await order();
    return paid?.status === 'succeeded' && paid.paid_effects['receipt-email'] === 'sent' && paid.paid_effects['affiliate-sale'] === 'sent';
  }, 'the order paid and its effects sent');

  const [succeeded] = await query<{ payload: Stripe.Event }>(`SELECT payload FROM payment_events WHERE type = 'payment_intent.succeeded'`);
  const event = succeeded.payload;

  // The same delivery five times at once, and a copy under a new id five times at once.
  const replays = await Promise.all(Array.from({ length: 5 }, () => sendSigned(event)));
  expect(replays.map((r) => [r.status, r.body])).toEqual(Array(5).fill([200, { received: true, duplicate: true }]));
  const copy = { ...event, id: 'evt_faultduplicate0000000001' };
  const copies = await Promise.all(Array.from({ length: 5 }, () => sendSigned(copy)));
  expect(copies.map((r) => r.status)).toEqual(Array(5).fill(200));
  expect(copies.filter((r) => (r.body as { duplicate: boolean }).duplicate === false)).toHaveLength(1);
  expect(await query(`SELECT id FROM payment_events WHERE id = $1`, [copy.id])).toHaveLength(1);

  // An earlier failure delivered after the success: applied, and the order stays paid.
  const object = event.data.object as unknown as Record<string, unknown>;
  const late = {
    ...event,
    id: 'evt_faultlatefailure00000001',
    type: 'payment_intent.payment_failed',
    created: event.created - 5,
    data: { object: { ...object, status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } } },
  };
  expect((await sendSigned(late)).body).toEqual({ received: true, duplicate: false });
  await waitFor(
    async () => (await query<{ applied_at: Date | null }>(`SELECT applied_at FROM payment_events WHERE id = $1`, [late.id]))[0]?.applied_at,
    'the late event applied',
  );
  expect((await order()).status).toBe('succeeded');

  // A valid signature made ten minutes ago: refused, with the reason, and not stored.
  const stale = { ...event, id: 'evt_faultstalereplay000000001' };
  const refused = await sendSigned(stale, Math.floor(Date.now() / 1000) - 600);
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({ message: expect.stringMatching(/more than 300 seconds old/) });
  expect(await query(`SELECT id FROM payment_events WHERE id = $1`, [stale.id])).toHaveLength(0);

  // Let whatever the replays owed run, then count the effects at the fakes.
  await everyOwedJobFinished(stack.db, 30_000);
  const paid = await order();
  // Counted at the fakes' door: one sale and one receipt were sent, each once.
  expect(doorSummary(affiliate.salesAtDoor())).toEqual(onceEach(1));
  expect(doorSummary(smtp.deliveriesAtDoor())).toEqual(onceEach(1));
  expect(affiliate.sales()).toHaveLength(1);
  expect(affiliate.saleAttempts().filter((a) => a.answer !== 'ok')).toEqual([]);
  expect(smtp.messages.map((m) => m.messageId)).toEqual([expect.stringContaining(`receipt-email.${paid.id}@`)]);
  expect(await query(`SELECT id FROM outbox WHERE job_name = 'order-paid'`)).toHaveLength(1);
});
