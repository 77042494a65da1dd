import request from 'supertest';
import { toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, PLANS, type Plan } from '@contracts/plans';
import { stripeSpecStack } from './support/stripe-spec';

/**
 * The order bump with Stripe: a one-time plan and its add-on are one PaymentIntent of both
 * amounts; a subscription charges the add-on as a one-time Price on its first invoice
 * (add_invoice_items, not discounted by our coupons), the plan's recurring Price alone after.
 * Amounts are the catalogue's, whatever the browser sends.
 */
const spec = stripeSpecStack({ webhookSecret: 'whsec_bumpstripesecret00000000000', worker: false });
const { stripe } = spec;
const http = () => request(spec.stack.url);
const buyer = { email: 'bump.stripe@example.com', name: 'Bump Stripe', source: 'clear' };
const BUMP = OFFERS.bump as Plan;
const ONE_TIME = PLANS.find((p) => p.kind === 'one-time' && !p.instalments && p.id !== BUMP.id) as Plan;
const STANDARD = OFFERS.default;
const cents = (plan: Plan) => toMinorUnits(plan.amount, CURRENCY);

it('one-time plan with the add-on: one PaymentIntent of both amounts', async () => {
  await http().post('/api/create-payment-intent').send({ ...buyer, plan: ONE_TIME.name, amount: ONE_TIME.amount, bump: true }).expect(200);
  const [intent] = stripe.requests.filter((r) => r.path === '/v1/payment_intents');
  expect(intent.params).toMatchObject({
    amount: String(cents(ONE_TIME) + cents(BUMP)),
    description: `${ONE_TIME.name} + ${BUMP.name}`,
    'metadata[plan_id]': ONE_TIME.id,
    'metadata[bump_plan_id]': BUMP.id,
  });
});

it("subscription with the add-on: a one-time Price on the first invoice, the plan's recurring Price as the item", async () => {
  await http().post('/api/create-setup-intent').send({ ...buyer, bump: true }).expect(200);
  await http()
    .post('/api/confirm-subscription')
    .send({ ...buyer, setupIntentId: 'seti_fake000000000000000001', plan: STANDARD.name, amount: STANDARD.amount })
    .expect(200);
  const created = stripe.requests.filter((r) => r.path === '/v1/prices' && r.method === 'POST');
  expect(created.map((r) => r.params)).toEqual([
    expect.objectContaining({ unit_amount: String(cents(STANDARD)), 'recurring[interval]': STANDARD.interval }),
    expect.not.objectContaining({ 'recurring[interval]': expect.anything() }),
  ]);
  expect(created[1].params).toMatchObject({ unit_amount: String(cents(BUMP)), lookup_key: `addon-${BUMP.id}`, 'product_data[name]': BUMP.name });
  const addOnPrice = [...stripe.prices.values()].find((p) => p.lookup_key === `addon-${BUMP.id}`);
  const recurring = [...stripe.prices.values()].find((p) => p.lookup_key === `plan-${STANDARD.id}-${STANDARD.interval}ly`);
  const [subscribe] = stripe.requests.filter((r) => r.path === '/v1/subscriptions');
  expect(subscribe.params).toMatchObject({
    'items[0][price]': recurring?.id,
    'add_invoice_items[0][price]': addOnPrice?.id,
    'add_invoice_items[0][discountable]': 'false',
  });
  const [order] = await spec.stack.db.query('SELECT amount_cents, bump_plan_id, bump_amount_cents FROM orders');
  expect(order).toEqual({ amount_cents: cents(STANDARD) + cents(BUMP), bump_plan_id: BUMP.id, bump_amount_cents: cents(BUMP) });
});

it('subscription without the add-on: no invoice item, the order records it was offered', async () => {
  await http().post('/api/create-setup-intent').send(buyer).expect(200);
  await http()
    .post('/api/confirm-subscription')
    .send({ ...buyer, setupIntentId: 'seti_fake000000000000000001', plan: STANDARD.name, amount: STANDARD.amount })
    .expect(200);
  const [subscribe] = stripe.requests.filter((r) => r.path === '/v1/subscriptions');
  expect(Object.keys(subscribe.params).filter((k) => k.startsWith('add_invoice_items'))).toEqual([]);
  const [order] = await spec.stack.db.query('SELECT amount_cents, bump_plan_id, bump_amount_cents FROM orders');
  expect(order).toEqual({ amount_cents: cents(STANDARD), bump_plan_id: BUMP.id, bump_amount_cents: null });
});
