import { createHash } from 'node:crypto';
import request from 'supertest';
import { OFFERS, planOf } from '@contracts/plans';
import { resetData, Stack, startStack } from './support/stack';

/** The site's one-time plan; prices and names come from the site folder, so a seller's change keeps this green. */
const FULL_PAYMENT = planOf('full-payment');

/**
 * Verification answers the buyer, not whoever holds a payment id: the browser that created the
 * order (its httpOnly buyer-key cookie, set at intent creation) gets the spec's fields; anyone
 * else gets status and amount, with e-mail, name and referral null.
 */
let stack: Stack;
const http = () => request(stack.url);
const buyer = { email: 'Private.Buyer@example.com', name: 'Private Buyer', source: 'clear', referral: 'partner-3' };
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const cookieOf = (res: request.Response): string => String(res.headers['set-cookie']).split(';')[0];

beforeAll(async () => {
  stack = await startStack(
    {
      PUBLIC_URL: 'http://localhost:3000',
      STRIPE_SECRET_KEY: '',
      RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
      RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    },
    { worker: false },
  );
});
afterAll(async () => {
  await stack?.stop();
});
beforeEach(async () => {
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects CASCADE');
});

/** A paid one-time order created by a browser holding `cookie` (none: a new browser). */
async function paidOrder(cookie?: string): Promise<{ id: string; res: request.Response }> {
  const call = http().post('/api/create-payment-intent');
  if (cookie) void call.set('Cookie', cookie);
  const res = await call.send({ ...buyer, plan: FULL_PAYMENT.name, amount: FULL_PAYMENT.amount }).expect(200);
  const clientSecret = res.body.clientSecret as string;
  await http().post('/api/sandbox/confirm-payment').send({ clientSecret, card, returnUrl: 'http://localhost:3000/success' }).expect(200);
  return { id: clientSecret.split('_secret_')[0], res };
}

it('sets an httpOnly, SameSite=Lax buyer key for /api at intent creation, stored only as its hash', async () => {
  const { res } = await paidOrder();
  const setCookie = String(res.headers['set-cookie']);
  expect(setCookie).toMatch(/^buyer_key=[A-Za-z0-9_-]{43};/);
  expect(setCookie).toContain('HttpOnly');
  expect(setCookie).toContain('SameSite=Lax');
  expect(setCookie).toContain('Path=/api');
  expect(setCookie).toMatch(/Max-Age=2592000/);
  // http://localhost: a Secure cookie would never come back.
  expect(setCookie).not.toContain('Secure');
  const key = cookieOf(res).split('=')[1];
  const [order] = await stack.db.query('SELECT buyer_key_hash FROM orders');
  expect(order.buyer_key_hash).toBe(createHash('sha256').update(key).digest('hex'));
});

it("answers the buyer's browser in full, anyone else with status and amount only", async () => {
  const { id, res } = await paidOrder();
  const buyerCookie = cookieOf(res);

  const toBuyer = await http().get(`/api/verify-payment/${id}`).set('Cookie', buyerCookie).expect(200);
  expect(toBuyer.body).toMatchObject({
    status: 'succeeded',
    amount: FULL_PAYMENT.amount,
    customer_email: 'Private.Buyer@example.com',
    customer_name: 'Private Buyer',
    referral: 'partner-3',
  });

  const stranger = {
    status: 'succeeded',
    amount: FULL_PAYMENT.amount,
    customer_email: null,
    customer_name: null,
    referral: null,
    plan: 'full-payment',
  };
  // No cookie (a shared link, a crawler), another browser's key, a malformed key: no personal data.
  expect((await http().get(`/api/verify-payment/${id}`).expect(200)).body).toMatchObject(stranger);
  const other = cookieOf((await paidOrder()).res);
  expect(other).not.toBe(buyerCookie);
  expect((await http().get(`/api/verify-payment/${id}`).set('Cookie', other).expect(200)).body).toMatchObject(stranger);
  expect((await http().get(`/api/verify-payment/${id}`).set('Cookie', 'buyer_key=not-a-key').expect(200)).body).toMatchObject(stranger);
});

it('binds every order of one browser to its key, subscriptions included', async () => {
  const first = await paidOrder();
  const cookie = cookieOf(first.res);
  // The same browser buys an upgrade: it keeps its key, and both orders answer it in full.
  const second = await paidOrder(cookie);
  expect(cookieOf(second.res)).toBe(cookie);
  for (const { id } of [first, second]) {
    expect((await http().get(`/api/verify-payment/${id}`).set('Cookie', cookie).expect(200)).body.customer_email).toBe(
      'Private.Buyer@example.com',
    );
  }

  const setup = await http().post('/api/create-setup-intent').set('Cookie', cookie).send(buyer).expect(200);
  const setupSecret = setup.body.clientSecret as string;
  await http()
    .post('/api/sandbox/confirm-setup')
    .send({ clientSecret: setupSecret, card, returnUrl: 'http://localhost:3000/checkout' })
    .expect(200);
  const subscribed = await http()
    .post('/api/confirm-subscription')
    .send({ ...buyer, setupIntentId: setupSecret.split('_secret_')[0], plan: OFFERS.default.name, amount: OFFERS.default.amount })
    .expect(200);
  const path = `/api/verify-subscription/${subscribed.body.subscriptionId}`;
  expect((await http().get(path).set('Cookie', cookie).expect(200)).body).toMatchObject({
    status: 'active',
    customer_name: 'Private Buyer',
  });
  expect((await http().get(path).expect(200)).body).toMatchObject({
    status: 'active',
    amount: OFFERS.default.amount,
    customer_name: null,
    customer_email: null,
  });
});
