import request from 'supertest';
import { toMinorUnits } from '@contracts/money';
import { CURRENCY, planOf } from '@contracts/plans';
import { resetRateLimits, waitFor } from './support/stack';
import { stripeSpecStack } from './support/stripe-spec';

/** The one-time plan these checkouts buy, from the site folder. */
const FULL_PAYMENT = planOf('full-payment');

/**
 * One-click upgrades with Stripe (its fake): the saved card is read from the first order's
 * PaymentIntent and its PaymentMethod, and the upgrade is one PaymentIntent confirmed at once on
 * it, with the buyer present, under the new order's idempotency key.
 */
const WEBHOOK_SECRET = 'whsec_oneclickstripesecret0000000';
const spec = stripeSpecStack({ webhookSecret: WEBHOOK_SECRET });
const { stripe } = spec;
let counter = 0;
let buyer = '';
let browser = '';

const post = (path: string, body: object) =>
  request(spec.stack.url)
    .post(path)
    .set('X-Forwarded-For', `10.15.0.${counter % 250}`)
    .set('Cookie', browser)
    .send(body);
const party = () => ({ email: buyer, name: 'Stripe Click', source: 'clear' });
const oneClickCharges = () =>
  stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.params.confirm === 'true');

beforeEach(async () => {
  await resetRateLimits();
  buyer = `stripe-click-${++counter}@example.com`;
});

/** A Full Payment paid in this browser: the PaymentIntent saved its card (setup_future_usage). */
async function payFull(): Promise<void> {
  const res = await post('/api/create-payment-intent', { ...party(), plan: FULL_PAYMENT.name, amount: FULL_PAYMENT.amount }).expect(200);
  browser = String(res.headers['set-cookie']).split(';')[0];
  const [order] = await spec.stack.db.query(`SELECT id FROM orders WHERE email = $1`, [buyer]);
  await spec.webhook(
    spec.event('payment_intent.succeeded', {
      id: 'pi_fake000000000000000001',
      object: 'payment_intent',
      status: 'succeeded',
      metadata: { order_id: order.id },
    }),
  );
  await waitFor(
    async () => (await spec.stack.db.query(`SELECT paid_at FROM orders WHERE id = $1`, [order.id]))[0].paid_at !== null,
    'paid',
  );
}

it('offers the card of the first PaymentIntent and charges it once, confirmed with the buyer present', async () => {
  await payFull();
  const offer = await request(spec.stack.url)
    .get(`/api/one-click?planId=2-month&email=${encodeURIComponent(buyer)}`)
    .set('Cookie', browser)
    .expect(200);
  expect(offer.body).toEqual({
    offer: { planId: '2-month', amountCents: toMinorUnits(planOf('2-month').amount, CURRENCY), last4: '4242' },
  });

  const [a, b] = await Promise.all([
    post('/api/one-click', { ...party(), planId: '2-month' }).expect(200),
    post('/api/one-click', { ...party(), planId: '2-month' }).expect(200),
  ]);
  expect(a.body).toMatchObject({ paymentIntentId: expect.stringMatching(/^pi_oneclick\d{14}$/), status: 'succeeded' });
  expect(b.body.paymentIntentId).toBe(a.body.paymentIntentId);
  const [upgrade] = await spec.stack.db.query(`SELECT id FROM orders WHERE email = $1 AND plan_id = '2-month'`, [buyer]);
  // Both requests reached Stripe under the one order's key; Stripe made one PaymentIntent.
  const charges = oneClickCharges();
  expect(new Set(charges.map((r) => r.idempotencyKey))).toEqual(new Set([`order:${upgrade.id}:one-click-charge`]));
  expect(charges.filter((r) => !r.replayed)).toHaveLength(1);
  expect(charges[0].params).toMatchObject({
    amount: String(toMinorUnits(planOf('2-month').amount, CURRENCY)),
    currency: CURRENCY.toLowerCase(),
    customer: 'cus_fake000000000000000001',
    payment_method: 'pm_fake000000000000000001',
    'allowed_payment_method_types[0]': 'card',
    confirm: 'true',
    'metadata[order_id]': upgrade.id,
  });
  expect(charges[0].params.off_session).toBeUndefined();
});

it('passes the authentication to the page, and a decline back with its reason', async () => {
  await payFull();
  stripe.savedCardOutcome = 'requires_action';
  const asked = await post('/api/one-click', { ...party(), planId: '2-month' }).expect(200);
  expect(asked.body).toMatchObject({ status: 'requires_action', clientSecret: `${asked.body.paymentIntentId}_secret_fake` });

  stripe.savedCardOutcome = 'declined';
  const declined = await post('/api/one-click', { ...party(), planId: '6-month' }).expect(200);
  expect(declined.body).toMatchObject({ status: 'failed', clientSecret: null, message: 'Your card was declined.' });
});
