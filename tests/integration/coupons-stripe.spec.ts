import request from 'supertest';
import { toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { adminSignIn, type AdminSession } from './support/admin';
import { clientAddresses } from './support/stack';
import { stripeSpecStack } from './support/stripe-spec';

/**
 * Coupons on Stripe (the fake, through the SDK, with the real worker running): our coupon becomes
 * one Stripe coupon and one promotion code, made once however many subscriptions use it, and
 * applied to the subscription (`discounts`) on the plan's full-price Price; a one-time plan's
 * PaymentIntent charges the discounted amount with the code in its metadata.
 */
const WEBHOOK_SECRET = 'whsec_stripecouponsecret0000000000';
const ADMIN = { email: 'stripe.coupons.admin@example.com', password: 'stripe-coupons-admin-password-1' };
const spec = stripeSpecStack({ webhookSecret: WEBHOOK_SECRET, truncate: 'orders, payment_events, coupons' });
const { stripe } = spec;
let session: AdminSession;
const nextClient = clientAddresses(32);
const STANDARD = OFFERS.default;
const LEVEL_TWO = planOf('blackcard-vip');

const post = (path: string, body: object) => request(spec.stack.url).post(path).set('X-Forwarded-For', nextClient()).send(body);
const createCoupon = async (terms: object) =>
  (
    await request(spec.stack.url)
      .post('/api/admin/coupons')
      .set('Cookie', session.cookie)
      .set('x-csrf-token', session.csrfToken)
      .send(terms)
      .expect(201)
  ).body as { id: string };
const writes = (path: string) => stripe.requests.filter((r) => r.method === 'POST' && r.path === path && r.status === 200 && !r.replayed);

async function subscribe(email: string, coupon: string): Promise<void> {
  // The fake answers every checkout with the same setup intent and subscription ids, which orders hold uniquely.
  await spec.stack.db.query(`UPDATE orders SET setup_intent_id = NULL, subscription_id = NULL`);
  const party = { email, name: 'Stripe Member', source: 'clear' };
  await post('/api/create-setup-intent', { ...party, coupon }).expect(200);
  await post('/api/confirm-subscription', {
    ...party,
    setupIntentId: 'seti_fake000000000000000001',
    plan: STANDARD.name,
    amount: STANDARD.amount,
  }).expect(200);
}

beforeAll(async () => {
  session = await adminSignIn(spec.stack.url, ADMIN);
});

it('makes the Stripe coupon and promotion code once, and creates each subscription with the discount on the full price', async () => {
  const coupon = await createCoupon({ code: 'WELCOME3', kind: 'percent', percentOff: 30, planIds: ['standard'], durationMonths: 3 });
  await subscribe('first-member@example.com', 'welcome3');
  await subscribe('second-member@example.com', 'WELCOME3');

  const coupons = writes('/v1/coupons');
  expect(coupons).toHaveLength(1);
  expect(coupons[0]).toMatchObject({
    params: { id: `coupon-${coupon.id}`, name: 'WELCOME3', percent_off: '30', duration: 'repeating', duration_in_months: '3' },
    idempotencyKey: `coupon:${coupon.id}`,
  });
  const promos = writes('/v1/promotion_codes');
  expect(promos).toHaveLength(1);
  expect(promos[0].params).toMatchObject({ 'promotion[type]': 'coupon', 'promotion[coupon]': `coupon-${coupon.id}`, code: 'WELCOME3' });
  const promoId = [...stripe.promotionCodes.keys()][0];

  const subscriptions = writes('/v1/subscriptions');
  expect(subscriptions).toHaveLength(2);
  for (const sub of subscriptions)
    expect(sub.params).toMatchObject({ 'discounts[0][promotion_code]': promoId, 'metadata[coupon_code]': 'WELCOME3' });
  // The Price is the plan's: the discount is Stripe's coupon, not a cheaper price.
  expect(writes('/v1/prices').every((p) => p.params.unit_amount === String(toMinorUnits(STANDARD.amount, CURRENCY)))).toBe(true);
  const orders = await spec.stack.db.query(`SELECT amount_cents, coupon_code FROM orders ORDER BY created_at`);
  const discounted = Math.round(toMinorUnits(STANDARD.amount, CURRENCY) * 0.7);
  expect(orders).toEqual([
    { amount_cents: discounted, coupon_code: 'WELCOME3' },
    { amount_cents: discounted, coupon_code: 'WELCOME3' },
  ]);
});

it('maps one month to once and no months to forever, with a fixed amount in the currency', async () => {
  const once = await createCoupon({ code: 'FIRSTMONTH', kind: 'fixed', amountOffCents: 2000, planIds: ['standard'], durationMonths: 1 });
  await subscribe('once-member@example.com', 'FIRSTMONTH');
  const forever = await createCoupon({ code: 'ALWAYS', kind: 'percent', percentOff: 10, planIds: ['premium', 'standard'] });
  await subscribe('forever-member@example.com', 'ALWAYS');
  const made = writes('/v1/coupons').map((r) => r.params);
  expect(made).toEqual([
    expect.objectContaining({ id: `coupon-${once.id}`, amount_off: '2000', currency: CURRENCY.toLowerCase(), duration: 'once' }),
    expect.objectContaining({ id: `coupon-${forever.id}`, percent_off: '10', duration: 'forever' }),
  ]);
  expect(made[1]).not.toHaveProperty('duration_in_months');
});

it('keeps using a Stripe coupon an older release made under its branded id, making none beside it', async () => {
  const coupon = await createCoupon({ code: 'EARLYBIRD', kind: 'percent', percentOff: 20, planIds: ['standard'], durationMonths: 2 });
  const legacyId = `clear-${coupon.id}`;
  stripe.coupons.set(legacyId, { id: legacyId, object: 'coupon', percent_off: 20, duration: 'repeating', duration_in_months: 2 });
  await subscribe('early-member@example.com', 'EARLYBIRD');
  expect(writes('/v1/coupons')).toEqual([]);
  expect(writes('/v1/promotion_codes')[0].params).toMatchObject({ 'promotion[coupon]': legacyId, code: 'EARLYBIRD' });
});

it('charges a one-time plan the discounted amount on its PaymentIntent, with the code in the metadata', async () => {
  await createCoupon({ code: 'VIP200', kind: 'fixed', amountOffCents: 20000, planIds: ['blackcard-vip'] });
  await post('/api/create-payment-intent', {
    email: 'vip@example.com',
    name: 'Vip',
    source: 'blackcard',
    plan: LEVEL_TWO.name,
    amount: LEVEL_TWO.amount,
    coupon: 'vip200',
  }).expect(200);
  const [intent] = writes('/v1/payment_intents');
  expect(intent.params).toMatchObject({
    amount: String(toMinorUnits(LEVEL_TWO.amount, CURRENCY) - 20000),
    currency: CURRENCY.toLowerCase(),
    'metadata[coupon_code]': 'VIP200',
  });
  // One-time plans need no Stripe coupon: PaymentIntents take none.
  expect(writes('/v1/coupons')).toEqual([]);
  expect((await spec.stack.db.query(`SELECT amount_cents FROM orders`))[0].amount_cents).toBe(
    toMinorUnits(LEVEL_TWO.amount, CURRENCY) - 20000,
  );
});
