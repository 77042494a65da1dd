import Stripe from 'stripe';
import request from 'supertest';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { stripeSpecStack } from './support/stripe-spec';

const WEBHOOK_SECRET = 'whsec_stripetestsecret000000000000';
const SANDBOX_SECRET = 'whsec_sandboxtestsecret0000000000';
const VERSION = '2026-10-28.endive';
const spec = stripeSpecStack({ webhookSecret: WEBHOOK_SECRET, env: { SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET }, worker: false });
const { stripe } = spec;
const http = () => request(spec.stack.url);
const buyer = { email: 'Stripe.Buyer@example.com', name: 'Stripe Buyer', source: 'clear' };
const STANDARD = OFFERS.default;
const STANDARD_CENTS = String(toMinorUnits(STANDARD.amount, CURRENCY));
/** A currency other than the site's, for a Price that charges the wrong one. */
const OTHER_CURRENCY = CURRENCY === 'EUR' ? 'usd' : 'eur';
const FULL = planOf('full-payment');
const orderId = async (): Promise<string> => (await spec.stack.db.query('SELECT id FROM orders ORDER BY created_at DESC LIMIT 1'))[0].id;

it('has no sandbox clock with Stripe', async () => {
  await http().post('/api/sandbox/clock').send({ advanceDays: 30 }).expect(404);
});

it('hands the browser the publishable key', async () => {
  expect((await http().get('/api/payments/config').expect(200)).body).toEqual({ provider: 'stripe', publishableKey: 'pk_test_fakekey' });
});

it('subscription: setup intent, then confirm-subscription with the exact Stripe calls and idempotency keys', async () => {
  const created = await http().post('/api/create-setup-intent').send(buyer).expect(200);
  expect(created.body).toEqual({ clientSecret: 'seti_fake000000000000000001_secret_fake' });
  const id = await orderId();
  // A customer of our own: Stripe is never searched for one with this address.
  expect(stripe.calls()).toEqual(['POST /v1/customers', 'POST /v1/setup_intents']);
  const [createCustomer, createSetup] = stripe.requests;
  expect(createCustomer).toMatchObject({
    params: { email: 'Stripe.Buyer@example.com', name: 'Stripe Buyer', 'metadata[order_id]': id },
    idempotencyKey: `order:${id}:create-customer`,
  });
  expect(createSetup).toMatchObject({
    params: {
      customer: 'cus_fake000000000000000001',
      usage: 'off_session',
      'automatic_payment_methods[enabled]': 'true',
      'metadata[order_id]': id,
      'metadata[plan_id]': 'standard',
    },
    idempotencyKey: `order:${id}:create-setup-intent`,
  });

  stripe.requests.length = 0;
  const confirmed = await http()
    .post('/api/confirm-subscription')
    .send({ ...buyer, setupIntentId: 'seti_fake000000000000000001', plan: STANDARD.name, amount: STANDARD.amount })
    .expect(200);
  expect(confirmed.body).toEqual({ subscriptionId: 'sub_fake000000000000000001' });
  // The confirmed card pays the subscription; the customer's default card is never changed. The
  // subscription is created incomplete and its first payment confirmed while the buyer waits.
  expect(stripe.calls()).toEqual([
    'GET /v1/setup_intents/seti_fake000000000000000001',
    'GET /v1/prices',
    'POST /v1/prices',
    'POST /v1/subscriptions',
    'GET /v1/payment_intents/pi_fake_invoice',
    'POST /v1/payment_intents/pi_fake_invoice/confirm',
    'GET /v1/subscriptions/sub_fake000000000000000001',
  ]);
  const [, findPrice, createPrice, subscribe, , confirmFirst] = stripe.requests;
  // Under its own key, or the branded key of older releases (still charged while its terms hold).
  expect(findPrice.params).toEqual({
    'lookup_keys[0]': 'plan-standard-monthly',
    'lookup_keys[1]': 'clear-standard-monthly',
    active: 'true',
    limit: '2',
  });
  expect(createPrice).toMatchObject({
    params: {
      currency: CURRENCY.toLowerCase(),
      unit_amount: STANDARD_CENTS,
      'recurring[interval]': 'month',
      lookup_key: 'plan-standard-monthly',
      'product_data[name]': OFFERS.default.name,
    },
    idempotencyKey: `price:plan-standard-monthly:${STANDARD_CENTS}`,
  });
  expect(subscribe).toMatchObject({
    params: {
      customer: 'cus_fake000000000000000001',
      'items[0][price]': 'price_fake00000000000000001',
      default_payment_method: 'pm_fake000000000000000001',
      payment_behavior: 'default_incomplete',
      'metadata[order_id]': id,
      'expand[0]': 'latest_invoice.payments',
    },
    idempotencyKey: `order:${id}:create-subscription`,
  });
  expect(subscribe.params).not.toHaveProperty('off_session');
  expect(confirmFirst).toMatchObject({
    params: { payment_method: 'pm_fake000000000000000001' },
    idempotencyKey: `order:${id}:confirm-first-payment`,
  });
  for (const req of [createCustomer, createSetup, ...stripe.requests]) {
    expect(req.stripeVersion).toBe(VERSION);
    expect(req.authorization).toBe('Bearer sk_test_fakekey');
  }

  const [order] = await spec.stack.db.query('SELECT status, subscription_id, payment_method_id, customer_id FROM orders');
  expect(order).toEqual({
    status: 'active',
    subscription_id: 'sub_fake000000000000000001',
    payment_method_id: 'pm_fake000000000000000001',
    customer_id: 'cus_fake000000000000000001',
  });
  stripe.requests.length = 0;
  const verified = await http().get('/api/verify-subscription/sub_fake000000000000000001').expect(200);
  expect(verified.body).toMatchObject({ status: 'active', amount: STANDARD.amount, plan: 'standard' });
  // Settled in Postgres: no provider call for the poll.
  expect(stripe.requests).toHaveLength(0);
});

describe('a first subscription payment the bank asks the buyer to authenticate', () => {
  const confirm = () =>
    http()
      .post('/api/confirm-subscription')
      .send({ ...buyer, setupIntentId: 'seti_fake000000000000000001', plan: STANDARD.name, amount: STANDARD.amount });

  it("hands the browser the first invoice's payment secret, and the same one again on a retry", async () => {
    stripe.firstPaymentOutcome = 'requires_action';
    stripe.subscriptionStatus = 'incomplete';
    await http().post('/api/create-setup-intent').send(buyer).expect(200);
    const id = await orderId();
    const answer = { subscriptionId: 'sub_fake000000000000000001', clientSecret: 'pi_fake_invoice_secret_fake' };
    expect((await confirm().expect(200)).body).toEqual(answer);
    const [order] = await spec.stack.db.query('SELECT status, subscription_id FROM orders');
    expect(order).toEqual({ status: 'incomplete', subscription_id: 'sub_fake000000000000000001' });

    // The buyer reloads before authenticating: the same subscription and the same payment, and
    // Stripe is asked with the same idempotency keys (no second subscription).
    expect((await confirm().expect(200)).body).toEqual(answer);
    const subscribes = stripe.requests.filter((r) => r.path === '/v1/subscriptions');
    expect(subscribes.map((r) => r.idempotencyKey)).toEqual([`order:${id}:create-subscription`, `order:${id}:create-subscription`]);
    expect(subscribes[1].replayed).toBe(true);

    // Authenticated in the browser: verification reads the subscription, now paid.
    stripe.subscriptionStatus = 'active';
    expect((await http().get('/api/verify-subscription/sub_fake000000000000000001').expect(200)).body).toMatchObject({ status: 'active' });
  });

  it('a declined first payment leaves the subscription incomplete, without a secret, for verification to report', async () => {
    stripe.firstPaymentOutcome = 'declined';
    stripe.subscriptionStatus = 'incomplete';
    await http().post('/api/create-setup-intent').send(buyer).expect(200);
    expect((await confirm().expect(200)).body).toEqual({ subscriptionId: 'sub_fake000000000000000001' });
    const [order] = await spec.stack.db.query('SELECT status FROM orders');
    expect(order.status).toBe('incomplete');
  });
});

it("never adopts a Stripe customer found by e-mail; a buyer's later checkout reuses the customer this system created", async () => {
  // Somebody's customer in the Stripe account with the same address, saved cards and all.
  stripe.existingCustomerId = 'cus_somebodyelse0000000001';
  await http().post('/api/create-setup-intent').send(buyer).expect(200);
  expect(stripe.calls()).toEqual(['POST /v1/customers', 'POST /v1/setup_intents']);
  expect(stripe.requests[1].params.customer).toBe('cus_fake000000000000000001');

  // A later checkout by the same buyer (any case) uses the customer created for the first one.
  stripe.requests.length = 0;
  await http()
    .post('/api/create-payment-intent')
    .send({ ...buyer, email: 'STRIPE.BUYER@example.com', plan: FULL.name, amount: FULL.amount })
    .expect(200);
  expect(stripe.calls()).toEqual(['POST /v1/payment_intents']);
  expect(stripe.requests[0].params.customer).toBe('cus_fake000000000000000001');
  expect(stripe.requests.some((r) => r.params.customer === 'cus_somebodyelse0000000001')).toBe(false);
});

it('reuses the Price under the lookup key only when it charges the catalogue terms; otherwise a new one takes the key over', async () => {
  const subscribe = async (email: string) => {
    // The fake answers every checkout with the same setup intent id: one order at a time.
    await spec.stack.db.query('TRUNCATE orders CASCADE');
    await http()
      .post('/api/create-setup-intent')
      .send({ ...buyer, email })
      .expect(200);
    stripe.requests.length = 0;
    await http()
      .post('/api/confirm-subscription')
      .send({ ...buyer, email, setupIntentId: 'seti_fake000000000000000001', plan: STANDARD.name, amount: STANDARD.amount })
      .expect(200);
    const prices = stripe.requests.filter((r) => r.path === '/v1/prices' && r.method === 'POST');
    const [subscription] = stripe.requests.filter((r) => r.path === '/v1/subscriptions');
    return { created: prices, charged: subscription.params['items[0][price]'] };
  };
  const matching = {
    id: 'price_catalogue0000000000001',
    unit_amount: toMinorUnits(STANDARD.amount, CURRENCY),
    currency: CURRENCY.toLowerCase(),
    interval: 'month',
  };

  stripe.existingPrice = matching;
  expect(await subscribe('terms-ok@example.com')).toEqual({ created: [], charged: matching.id });

  // Edited in the dashboard, or left from an older price list: never charged.
  for (const [i, changed] of [{ unit_amount: 4700 }, { currency: OTHER_CURRENCY }, { interval: 'year' }].entries()) {
    stripe.existingPrice = { ...matching, id: `price_wrongterms00000000000${i}`, ...changed };
    const { created, charged } = await subscribe(`terms-${i}@example.com`);
    // The Price the fake made for this order, which now holds the lookup key.
    expect(charged).toBe([...stripe.prices.values()].find((p) => p.lookup_key === 'plan-standard-monthly')?.id);
    expect(created).toHaveLength(1);
    expect(created[0].params).toMatchObject({
      currency: CURRENCY.toLowerCase(),
      unit_amount: STANDARD_CENTS,
      'recurring[interval]': 'month',
      lookup_key: 'plan-standard-monthly',
      transfer_lookup_key: 'true',
    });
    expect(created[0].idempotencyKey).toBe(`price:plan-standard-monthly:${STANDARD_CENTS}:replaces:price_wrongterms00000000000${i}`);
  }

  // A Price of an older release under its branded key is charged while its terms hold: no second one beside it.
  stripe.existingPrice = null;
  stripe.prices.clear();
  const legacy = stripe.addPrice({ lookupKey: 'clear-standard-monthly', unitAmount: toMinorUnits(STANDARD.amount, CURRENCY) });
  expect(await subscribe('terms-legacy@example.com')).toEqual({ created: [], charged: legacy.id });
});

it('refuses to subscribe on a setup intent that has not succeeded', async () => {
  await http().post('/api/create-setup-intent').send(buyer).expect(200);
  stripe.setupIntentStatus = 'requires_payment_method';
  const res = await http()
    .post('/api/confirm-subscription')
    .send({ ...buyer, setupIntentId: 'seti_fake000000000000000001', plan: STANDARD.name, amount: STANDARD.amount })
    .expect(400);
  expect(res.body.message).toBe('Your card has not been confirmed yet. Please complete the card details and try again.');
  expect(stripe.calls()).not.toContain('POST /v1/subscriptions');
});

it('one-time plan: a payment intent that saves the card on the reused customer', async () => {
  // The buyer's earlier checkout made the customer this one reuses.
  await http().post('/api/create-setup-intent').send(buyer).expect(200);
  stripe.requests.length = 0;
  const res = await http()
    .post('/api/create-payment-intent')
    .send({ ...buyer, plan: FULL.name, amount: FULL.amount })
    .expect(200);
  expect(res.body).toEqual({ clientSecret: 'pi_fake000000000000000001_secret_fake' });
  const id = await orderId();
  expect(stripe.calls()).toEqual(['POST /v1/payment_intents']);
  expect(stripe.requests[0]).toMatchObject({
    params: {
      amount: String(toMinorUnits(FULL.amount, CURRENCY)),
      currency: CURRENCY.toLowerCase(),
      customer: 'cus_fake000000000000000001',
      setup_future_usage: 'off_session',
      'automatic_payment_methods[enabled]': 'true',
      description: 'Full Payment',
      'metadata[order_id]': id,
      'metadata[plan_id]': 'full-payment',
    },
    idempotencyKey: `order:${id}:create-payment-intent`,
    stripeVersion: VERSION,
  });

  stripe.requests.length = 0;
  const verified = await http().get('/api/verify-payment/pi_fake000000000000000001').expect(200);
  expect(verified.body.status).toBe('succeeded');
  expect(stripe.calls()).toEqual(['GET /v1/payment_intents/pi_fake000000000000000001']);
});

it('a verification whose Stripe read failed answers from the order and leaves no claim: the next poll reads Stripe at once', async () => {
  await http()
    .post('/api/create-payment-intent')
    .send({ ...buyer, plan: FULL.name, amount: FULL.amount })
    .expect(200);
  const intent = '/v1/payment_intents/pi_fake000000000000000001';
  // Every try of the SDK's retries fails.
  stripe.failNext(100, intent);
  const stale = await http().get('/api/verify-payment/pi_fake000000000000000001').expect(200);
  expect(stale.body.status).toBe('requires_payment_method');
  stripe.failNext(0);
  stripe.requests.length = 0;

  // Well within VERIFY_REFRESH_MS (3 s): a claim left by the failed read would answer from the row again.
  const fresh = await http().get('/api/verify-payment/pi_fake000000000000000001').expect(200);
  expect(fresh.body.status).toBe('succeeded');
  expect(stripe.calls()).toEqual([`GET ${intent}`]);
  // The successful read holds the claim: a poll right after it answers from the row, without asking Stripe.
  await http().get('/api/verify-payment/pi_fake000000000000000001').expect(200);
  expect(stripe.calls()).toEqual([`GET ${intent}`]);
});

it('a retried create for the same order sends the same idempotency key', async () => {
  stripe.existingCustomerId = 'cus_existing0000000000001';
  stripe.failNext(1, '/v1/payment_intents');
  await http()
    .post('/api/create-payment-intent')
    .send({ ...buyer, plan: planOf('2-month').name, amount: planOf('2-month').amount })
    .expect(200);
  const id = await orderId();
  const creates = stripe.requests.filter((r) => r.path === '/v1/payment_intents');
  expect(creates).toHaveLength(2);
  expect(creates.map((r) => r.idempotencyKey)).toEqual([`order:${id}:create-payment-intent`, `order:${id}:create-payment-intent`]);

  // The gateway asked again for the same order (a retry after a lost answer) uses the same key too.
  const gateway = spec.stack.api!.get<PaymentGateway>(PAYMENT_GATEWAY);
  const again = await gateway.createCharge({
    id,
    plan: planOf('2-month'),
    amountCents: 55000,
    currency: CURRENCY.toLowerCase(),
    email: buyer.email,
    emailNormalized: 'stripe.buyer@example.com',
    name: buyer.name,
    customerId: 'cus_existing0000000000001',
  });
  expect(again.intentId).toBe('pi_fake000000000000000001');
  expect(stripe.requests.at(-1)).toMatchObject({ path: '/v1/payment_intents', idempotencyKey: `order:${id}:create-payment-intent` });
});

it('answers 503 with a readable message when Stripe keeps failing, and keeps no intent id', async () => {
  stripe.failNext(10);
  const res = await http()
    .post('/api/create-payment-intent')
    .send({ ...buyer, plan: FULL.name, amount: FULL.amount })
    .expect(503);
  expect(res.body.message).toBe('The payment service is not answering right now. Please try again in a minute.');
});

it("verifies webhooks with Stripe's secret, not the sandbox's", async () => {
  const payload = JSON.stringify({
    id: 'evt_stripe_1',
    object: 'event',
    type: 'invoice.paid',
    data: { object: { id: 'in_1', object: 'invoice' } },
  });
  const send = (secret: string) =>
    http()
      .post('/api/webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', Stripe.webhooks.generateTestHeaderString({ payload, secret }))
      .send(payload);
  await send(SANDBOX_SECRET).expect(400);
  await send(WEBHOOK_SECRET).expect(200);
  expect(await spec.stack.db.query('SELECT id FROM payment_events')).toEqual([{ id: 'evt_stripe_1' }]);
});

it("takes Stripe's large events: its webhook route keeps WEBHOOK_BODY_LIMIT_BYTES, not the sandbox's 64 KiB", async () => {
  // Stripe events carry whole objects: 200 KB is far over the sandbox's limit and legitimate.
  const payload = JSON.stringify({
    id: 'evt_stripe_large',
    object: 'event',
    type: 'invoice.paid',
    data: { object: { id: 'in_large', object: 'invoice', metadata: { notes: 'n'.repeat(200_000) } } },
  });
  await http()
    .post('/api/webhooks/stripe')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }))
    .send(payload)
    .expect(200);
  expect(await spec.stack.db.query(`SELECT id FROM payment_events`)).toEqual([{ id: 'evt_stripe_large' }]);
});

it('does not serve the sandbox when Stripe is configured', async () => {
  await http().post('/api/sandbox/confirm-payment').send({}).expect(404);
  await http().get('/api/sandbox/authenticate?client_secret=x&return_url=y').expect(404);
  const evidence = await http()
    .post('/api/sandbox/disputes/dp_nosuchdispute000000000001/evidence')
    .send({ evidence: 'losing_evidence' })
    .expect(404);
  // The guard's answer: the sandbox is never asked.
  expect(evidence.body.message).toBe('Not found');
});
