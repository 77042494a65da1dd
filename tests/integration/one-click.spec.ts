import request from 'supertest';
import { OFFERS, planOf } from '@contracts/plans';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { SmtpSink } from '../fakes/smtp-sink';
import { outboxDrained, resetData, resetRateLimits, Stack, startStack, waitFor } from './support/stack';

/**
 * One-click upgrades in the sandbox, through the real worker: the browser that has just paid
 * (its buyer key, within ONE_CLICK_WINDOW_MINUTES) is offered the next plan on its saved card, and
 * buys it with one charge however often it asks; nobody else is offered it.
 */
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const smtp = new SmtpSink();
let stack: Stack;
let counter = 0;
let buyer = '';
let browser = '';

const client = () => `10.14.${Math.floor(counter / 250)}.${counter % 250}`;
const post = (path: string, body: object, cookie = browser) =>
  request(stack.url).post(path).set('X-Forwarded-For', client()).set('Cookie', cookie).send(body);
const offer = (planId: string, cookie = browser, email = buyer) =>
  request(stack.url)
    .get(`/api/one-click?planId=${planId}&email=${encodeURIComponent(email)}`)
    .set('Cookie', cookie)
    .expect(200);
const party = () => ({ email: buyer, name: 'One Click', source: 'clear' });
const ordersOf = async (planId: string) => stack.db.query(`SELECT * FROM orders WHERE email = $1 AND plan_id = $2`, [buyer, planId]);
const chargesOf = async (orderId: string) =>
  stack.db.query(`SELECT id, status FROM sandbox_objects WHERE object = 'payment_intent' AND order_id = $1`, [orderId]);

beforeAll(async () => {
  stack = await startStack({ SMTP_URL: await smtp.start(), STRIPE_SECRET_KEY: '', TRUST_PROXY: 'true', JOB_RETRY_HORIZON_S: '120' });
});
afterAll(async () => {
  await stack?.stop();
  await smtp.stop();
});
beforeEach(async () => {
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects CASCADE');
  await resetRateLimits();
  smtp.reset();
  buyer = `one-click-${++counter}@example.com`;
  browser = '';
});

/** A standard member paid with 4242 in this browser (whose buyer-key cookie is kept). */
async function subscribe(): Promise<void> {
  const setup = await post('/api/create-setup-intent', party()).expect(200);
  browser = String(setup.headers['set-cookie']).split(';')[0];
  const clientSecret: string = setup.body.clientSecret;
  await post('/api/sandbox/confirm-setup', { clientSecret, card, returnUrl: `${stack.url}/checkout?plan=standard` }).expect(200);
  const body = { ...party(), setupIntentId: clientSecret.split('_secret_')[0], plan: OFFERS.default.name, amount: OFFERS.default.amount };
  await post('/api/confirm-subscription', body).expect(200);
  await waitFor(async () => (await ordersOf('standard'))[0]?.paid_at !== null, 'standard paid');
}

it('offers the saved card to the browser that just paid, for another one-time plan, and to nobody else', async () => {
  await subscribe();
  expect((await offer('2-month')).body).toEqual({ offer: { planId: '2-month', amountCents: 55_000, last4: '4242' } });
  // Another browser, another address, a subscription plan, an unknown plan: no offer.
  expect((await offer('2-month', 'buyer_key=someone-else')).body).toEqual({ offer: null });
  expect((await offer('2-month', '')).body).toEqual({ offer: null });
  expect((await offer('2-month', browser, `other-${buyer}`)).body).toEqual({ offer: null });
  expect((await offer('premium')).body).toEqual({ offer: null });
  expect((await offer('nonsense')).body).toEqual({ offer: null });
  // The checkout's add-on is never sold alone, in one click neither.
  if (OFFERS.bump) {
    expect((await offer(OFFERS.bump.id)).body).toEqual({ offer: null });
    await post('/api/one-click', { ...party(), planId: OFFERS.bump.id }).expect(400);
  }
  // Thirty minutes after the payment, the binding is over.
  await stack.db.query(`UPDATE orders SET paid_at = now() - interval '31 minutes' WHERE email = $1`, [buyer]);
  expect((await offer('2-month')).body).toEqual({ offer: null });
  const late = await post('/api/one-click', { ...party(), planId: '2-month' }).expect(409);
  expect(late.body.message).toContain('Please enter your card details');
});

it('buys in one click with exactly one charge, though asked twice at once and again after a reload', async () => {
  await subscribe();
  const [first, second] = await Promise.all([
    post('/api/one-click', { ...party(), planId: '2-month' }).expect(200),
    post('/api/one-click', { ...party(), planId: '2-month' }).expect(200),
  ]);
  expect(first.body).toMatchObject({ status: 'succeeded', clientSecret: null, message: null });
  expect(second.body.paymentIntentId).toBe(first.body.paymentIntentId);
  const [order] = await ordersOf('2-month');
  await waitFor(async () => Object.keys((await ordersOf('2-month'))[0].paid_effects).length === 4, 'paid effects of the upgrade');
  // The page reloaded after paying: the offer still names the card, and asking again charges nothing more.
  expect((await offer('2-month')).body.offer).not.toBeNull();
  const again = await post('/api/one-click', { ...party(), planId: '2-month' }).expect(200);
  expect(again.body.paymentIntentId).toBe(first.body.paymentIntentId);
  await outboxDrained(stack.db);

  expect(await ordersOf('2-month')).toHaveLength(1);
  expect(await chargesOf(order.id)).toEqual([{ id: first.body.paymentIntentId, status: 'succeeded' }]);
  // An order like any other: paid, verified on /success in full by this browser, its receipt once.
  const verified = await request(stack.url).get(`/api/verify-payment/${first.body.paymentIntentId}`).set('Cookie', browser).expect(200);
  expect(verified.body).toMatchObject({ status: 'succeeded', amount: planOf('2-month').amount, customer_email: buyer });
  expect((await ordersOf('2-month'))[0]).toMatchObject({
    status: 'succeeded',
    amount_cents: 55_000,
    one_click_source_id: expect.any(String),
  });
  const receipts = smtp.messages.filter((m) => /2-Month Plan/.test(m.subject ?? ''));
  expect(receipts).toHaveLength(1);
  const mails = smtp.deliveriesAtDoor();
  expect(exactlyOnceProblems(mails, [...new Set(mails.map((m) => m.identity))])).toEqual([]);
});

it('hands the bank’s authentication to the page, and a decline back to the card form with its reason', async () => {
  await subscribe();
  const setCard = (outcome: string) =>
    stack.db.query(`UPDATE sandbox_objects SET card = jsonb_set(card, '{outcome}', to_jsonb($1::text)) WHERE card IS NOT NULL`, [outcome]);
  await setCard('always_authenticate');
  const asked = await post('/api/one-click', { ...party(), planId: '2-month' }).expect(200);
  expect(asked.body).toMatchObject({ status: 'requires_action', message: null });
  expect(asked.body.clientSecret).toMatch(/^pi_[0-9A-Za-z]{24}_secret_/);
  // The sandbox's stand-in for Stripe.js's handleNextAction accepts it.
  await post('/api/sandbox/next-action', { clientSecret: asked.body.clientSecret, returnUrl: `${stack.url}/success` }).expect(200);

  await setCard('insufficient_funds');
  const declined = await post('/api/one-click', { ...party(), planId: '6-month' }).expect(200);
  expect(declined.body).toMatchObject({ status: 'failed', clientSecret: null, message: 'Your card has insufficient funds.' });
  const [order] = await ordersOf('6-month');
  await waitFor(async () => (await ordersOf('6-month'))[0].status === 'failed', 'the decline applied');
  expect(order.paid_at).toBeNull();
});

it('refuses bad input readably', async () => {
  const res = await post('/api/one-click', { planId: '2-month', email: 'not-an-email', name: 'x', source: 'clear' }).expect(400);
  expect(JSON.stringify(res.body)).toMatch(/email/i);
  await request(stack.url).get('/api/one-click?planId=2-month').expect(400);
});
