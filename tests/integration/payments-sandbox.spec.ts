import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import request from 'supertest';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { formatPrice, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { resetData, Stack, startStack } from './support/stack';

/** Plans and prices from the site folder, so a seller's price change or rename keeps this green. */
const STANDARD = OFFERS.default;
const PREMIUM = planOf('premium');
const FULL_PAYMENT = planOf('full-payment');
const BLACKCARD = planOf('blackcard-vip');
const FULL_CENTS = toMinorUnits(FULL_PAYMENT.amount, CURRENCY);
/** A price as the API's messages state it ('$997'). */
const price = (amount: number) => formatPrice(amount, CURRENCY);
const SECRET = 'whsec_sandboxtestsecret0000000000';
let stack: Stack;
let ipCounter = 0;
/** Each call comes from a new client address (TRUST_PROXY is on), so only the limit under test counts. */
const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const http = () => request(stack.url);
const post = (path: string, body: object, ip = freshIp()) => http().post(path).set('X-Forwarded-For', ip).send(body);

let buyer = '';
const party = (email = buyer) => ({ email, name: 'Jane Buyer', source: 'clear' });
const card = (number: string) => ({ number, expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' });
const SUCCESS_URL = 'http://localhost:3000/success?plan=full-payment';
const CHECKOUT_URL = 'http://localhost:3000/checkout?plan=standard';

const outboxJobs = async (name: string): Promise<Array<{ id: string; payload: any }>> =>
  stack.db.query(`SELECT id, payload FROM outbox WHERE job_name = $1 ORDER BY created_at, id`, [name]);

/** An intent's `created` event and a card setup's success, which the sandbox stores applied, owing no job (NOTHING_TO_APPLY). */
const NOTHING_TO_APPLY = ['payment_intent.created', 'setup_intent.created', 'setup_intent.succeeded'];

/**
 * The events the sandbox stored since the last call (it stores them with the `payment-event` job
 * that applies them, in the transaction of the change), each checked to be applied by exactly one
 * job (an intent's `created` event by none, stored applied) and to be a Stripe event the signed
 * webhook endpoint accepts, as a duplicate of the one stored.
 */
const seen = new Set<string>();
async function storedSandboxEvents(): Promise<string[]> {
  const types: string[] = [];
  const events: Array<{ id: string; type: string; payload: unknown; applied_at: Date | null }> = await stack.db.query(
    `SELECT id, type, payload, applied_at FROM payment_events ORDER BY received_at, id`,
  );
  const applyJobs = (await outboxJobs('payment-event')).flatMap((job) => [job.payload.eventId, ...(job.payload.moreEventIds ?? [])]);
  for (const event of events) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    const nothingToApply = NOTHING_TO_APPLY.includes(event.type);
    expect(applyJobs.filter((id) => id === event.id)).toHaveLength(nothingToApply ? 0 : 1);
    if (nothingToApply) expect(event.applied_at).not.toBeNull();
    const payload = JSON.stringify(event.payload);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    const res = await http()
      .post('/api/webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', header)
      .send(payload)
      .expect(200);
    expect(res.body).toEqual({ received: true, duplicate: true });
    types.push(event.type);
  }
  return types;
}

/** The buyer-key cookie the last intent call gave its browser: verification answers that browser in full. */
let buyerCookie = '';
const keepBuyerCookie = (res: request.Response) => {
  buyerCookie = String(res.headers['set-cookie']).split(';')[0];
};

async function paymentIntent(
  plan = FULL_PAYMENT.name,
  amount = FULL_PAYMENT.amount,
  email?: string,
): Promise<{ clientSecret: string; id: string }> {
  const res = await post('/api/create-payment-intent', { ...party(email), plan, amount }).expect(200);
  keepBuyerCookie(res);
  return { clientSecret: res.body.clientSecret, id: res.body.clientSecret.split('_secret_')[0] };
}

async function setupIntent(email?: string): Promise<{ clientSecret: string; id: string }> {
  const res = await post('/api/create-setup-intent', party(email)).expect(200);
  keepBuyerCookie(res);
  return { clientSecret: res.body.clientSecret, id: res.body.clientSecret.split('_secret_')[0] };
}

beforeAll(async () => {
  stack = await startStack(
    {
      SANDBOX_WEBHOOK_SECRET: SECRET,
      // The return URLs below are the site's; nothing here delivers to PUBLIC_URL (no worker).
      PUBLIC_URL: 'http://localhost:3000',
      STRIPE_SECRET_KEY: '',
      TRUST_PROXY: 'true',
      RATE_LIMIT_INTENTS_PER_CLIENT: '5',
      RATE_LIMIT_INTENTS_PER_EMAIL: '4',
      VERIFY_REFRESH_MS: '60000',
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
  seen.clear();
  // One address per test: the per-e-mail limit is under test too.
  buyer = `buyer-${++ipCounter}@example.com`;
});

describe('payments config', () => {
  it('names the sandbox when no Stripe keys are configured', async () => {
    const res = await http().get('/api/payments/config').expect(200);
    expect(res.body).toEqual({ provider: 'sandbox', publishableKey: null });
  });
});

describe('POST /api/create-payment-intent', () => {
  it('creates an order priced from the catalogue and a Stripe-like intent', async () => {
    const { clientSecret, id } = await paymentIntent();
    expect(clientSecret).toMatch(/^pi_[0-9A-Za-z]{24}_secret_[0-9A-Za-z]{24}$/);
    const [order] = await stack.db.query('SELECT * FROM orders');
    expect(order).toMatchObject({
      plan_id: 'full-payment',
      kind: 'one-time',
      amount_cents: FULL_CENTS,
      currency: CURRENCY.toLowerCase(),
      email_normalized: buyer,
      provider: 'sandbox',
      status: 'created',
      payment_intent_id: id,
    });
    expect(order.customer_id).toMatch(/^cus_[0-9A-Za-z]{24}$/);
  });

  it("copies a known lead's referral and attribution onto the order, and hashes the invite token", async () => {
    const [lead] = await stack.db.query(
      `INSERT INTO leads (email, email_normalized, referral, attribution) VALUES ('Lead@Example.com', 'lead@example.com', 'partner7', '{"tid":"tid-123","ga_client_id":"1.2","fbp":"fb.1.2"}') RETURNING id`,
    );
    await post('/api/create-payment-intent', {
      ...party('LEAD@example.com'),
      plan: planOf('2-month').name,
      amount: planOf('2-month').amount,
      blackcard_token: 'raw-invite-token',
    }).expect(200);
    const [order] = await stack.db.query('SELECT referral, attribution, invitation_token_hash, lead_id FROM orders');
    expect(order.referral).toBe('partner7');
    expect(order.attribution).toMatchObject({ tid: 'tid-123', ga_client_id: '1.2', fbp: 'fb.1.2' });
    expect(order.lead_id).toBe(lead.id);
    expect(order.invitation_token_hash).toBe(createHash('sha256').update('raw-invite-token').digest('hex'));
    expect(JSON.stringify(order)).not.toContain('raw-invite-token');
  });

  it("credits the paying browser: its own referral and tracking id win over a lead's stored ones", async () => {
    // Anyone can save a lead for somebody else's e-mail with their own affiliate cookie.
    await stack.db.query(
      `INSERT INTO leads (email, email_normalized, referral, attribution) VALUES ('buyer@example.com', 'buyer@example.com', 'squatter1', '{"tid":"tid-squatter","ga_client_id":"1.2"}')`,
    );
    await post('/api/create-payment-intent', {
      ...party('buyer@example.com'),
      referral: 'partner9',
      plan: FULL_PAYMENT.name,
      amount: FULL_PAYMENT.amount,
    })
      .set('Cookie', '_fprom_tid=tid-buyer')
      .expect(200);
    const [order] = await stack.db.query('SELECT referral, attribution FROM orders');
    expect(order.referral).toBe('partner9');
    expect(order.attribution).toEqual({ tid: 'tid-buyer', ga_client_id: '1.2' });
  });

  it("credits a lead's stored referral only within AFFILIATE_COOKIE_DAYS (30) of the lead", async () => {
    await stack.db.query(
      `INSERT INTO leads (email, email_normalized, referral, attribution, first_submitted_at)
       VALUES ('old@example.com', 'old@example.com', 'partner7', '{"tid":"tid-old","ga_client_id":"1.2"}', now() - interval '31 days'),
              ('recent@example.com', 'recent@example.com', 'partner7', '{"tid":"tid-recent"}', now() - interval '29 days')`,
    );
    for (const email of ['old@example.com', 'recent@example.com'])
      await post('/api/create-payment-intent', { ...party(email), plan: FULL_PAYMENT.name, amount: FULL_PAYMENT.amount }).expect(200);
    const rows = await stack.db.query('SELECT email, referral, attribution FROM orders ORDER BY email');
    expect(rows).toEqual([
      { email: 'old@example.com', referral: null, attribution: { ga_client_id: '1.2' } },
      { email: 'recent@example.com', referral: 'partner7', attribution: { tid: 'tid-recent' } },
    ]);
  });

  it.each([
    [
      { plan: FULL_PAYMENT.name, amount: 1 },
      `The amount ${price(1)} does not match the price of "${FULL_PAYMENT.name}", which is ${price(FULL_PAYMENT.amount)}.`,
    ],
    [
      { plan: BLACKCARD.name, amount: 250 },
      `The amount ${price(250)} does not match the price of "${BLACKCARD.name}", which is ${price(BLACKCARD.amount)}.`,
    ],
    [{ plan: 'Free Plan', amount: 0 }, /^Unknown plan "Free Plan"/],
    [{ plan: STANDARD.name, amount: STANDARD.amount }, `"${STANDARD.name}" is a subscription: start it with /api/create-setup-intent.`],
    [{ plan: FULL_PAYMENT.name, amount: String(FULL_PAYMENT.amount) }, 'amount must be a number of dollars'],
  ])('refuses a tampered plan or amount %j with a 400 that says why', async (tamper, message) => {
    const res = await post('/api/create-payment-intent', { ...party(), ...tamper }).expect(400);
    expect(res.body.message).toEqual(message instanceof RegExp ? expect.stringMatching(message) : message);
    expect(await stack.db.query('SELECT id FROM orders')).toHaveLength(0);
  });

  it('refuses control characters and missing fields', async () => {
    let res = await post('/api/create-payment-intent', {
      ...party(),
      name: 'Jane\nBuyer',
      plan: FULL_PAYMENT.name,
      amount: FULL_PAYMENT.amount,
    }).expect(400);
    expect(res.body.message).toBe('name must not contain control characters (such as line breaks or null bytes)');
    res = await post('/api/create-payment-intent', {
      name: 'Jane',
      source: 'clear',
      plan: FULL_PAYMENT.name,
      amount: FULL_PAYMENT.amount,
    }).expect(400);
    expect(res.body.message).toBe('Please enter a valid email address');
  });
});

describe('POST /api/create-setup-intent', () => {
  it('creates a standard subscription order by default and a setup intent', async () => {
    const { clientSecret } = await setupIntent();
    expect(clientSecret).toMatch(/^seti_[0-9A-Za-z]{24}_secret_[0-9A-Za-z]{24}$/);
    const [order] = await stack.db.query('SELECT plan_id, kind, amount_cents, status FROM orders');
    expect(order).toEqual({
      plan_id: 'standard',
      kind: 'subscription',
      amount_cents: toMinorUnits(STANDARD.amount, CURRENCY),
      status: 'created',
    });
  });

  it('refuses a one-time plan', async () => {
    const res = await post('/api/create-setup-intent', { ...party(), planId: 'full-payment' }).expect(400);
    expect(res.body.message).toBe(`"${FULL_PAYMENT.name}" is a one-time payment: pay it with /api/create-payment-intent.`);
  });
});

describe('sandbox one-time payments', () => {
  it('4242 succeeds: verified as succeeded, paid side effects owed once, events stored with their apply jobs', async () => {
    const { clientSecret, id } = await paymentIntent();
    const confirm = await post('/api/sandbox/confirm-payment', {
      clientSecret,
      card: card('4242 4242 4242 4242'),
      returnUrl: SUCCESS_URL,
    }).expect(200);
    expect(confirm.body).toEqual({ intent: { id, status: 'succeeded', object: 'payment_intent' } });

    const verified = await http().get(`/api/verify-payment/${id}`).set('Cookie', buyerCookie).expect(200);
    const [order] = await stack.db.query('SELECT purchase_event_id, status FROM orders');
    expect(verified.body).toEqual({
      status: 'succeeded',
      amount: FULL_PAYMENT.amount,
      customer_email: buyer,
      customer_name: 'Jane Buyer',
      referral: null,
      plan: 'full-payment',
      purchase_event_id: order.purchase_event_id,
    });
    for (let i = 0; i < 5; i++) await http().get(`/api/verify-payment/${id}`).expect(200);
    expect(await outboxJobs('order-paid')).toHaveLength(1);

    expect(await storedSandboxEvents()).toEqual(['payment_intent.created', 'payment_intent.succeeded']);
    // Stored by the sandbox itself: no delivery job back into the API.
    expect(await outboxJobs('sandbox-webhook')).toHaveLength(0);
    const events = await stack.db.query(`SELECT id, type, payload FROM payment_events ORDER BY received_at`);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['payment_intent.created', 'payment_intent.succeeded']);
    expect(events[1].payload.data.object).toMatchObject({
      id,
      object: 'payment_intent',
      status: 'succeeded',
      amount: FULL_CENTS,
      metadata: { plan_id: 'full-payment' },
    });
    expect(JSON.stringify(events)).not.toContain('_secret_');
    // The intent's creation changed nothing to apply: one job, for the payment.
    expect((await outboxJobs('payment-event')).map((job) => job.payload)).toEqual([{ eventId: events[1].id }]);
  });

  it.each([
    [
      '4000000000000002',
      { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
    ],
    [
      '4000000000009995',
      { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    ],
  ])("%s is declined with Stripe's error and the order is not paid", async (number, error) => {
    const { clientSecret, id } = await paymentIntent();
    const res = await post('/api/sandbox/confirm-payment', { clientSecret, card: card(number), returnUrl: SUCCESS_URL }).expect(200);
    expect(res.body).toEqual({ error });
    const verified = await http().get(`/api/verify-payment/${id}`).expect(200);
    expect(verified.body.status).toBe('requires_payment_method');
    expect(await storedSandboxEvents()).toEqual(['payment_intent.created', 'payment_intent.payment_failed']);
    expect(await outboxJobs('order-paid')).toHaveLength(0);
  });

  it('refuses an invalid number or an expired card before touching the intent', async () => {
    const { clientSecret } = await paymentIntent();
    let res = await post('/api/sandbox/confirm-payment', { clientSecret, card: card('4242424242424241'), returnUrl: SUCCESS_URL }).expect(
      200,
    );
    expect(res.body.error).toMatchObject({ type: 'validation_error', message: 'Your card number is invalid.' });
    res = await post('/api/sandbox/confirm-payment', {
      clientSecret,
      card: { ...card('4242424242424242'), expYear: 2020 },
      returnUrl: SUCCESS_URL,
    }).expect(200);
    expect(res.body.error.message).toBe("Your card's expiration date is in the past.");
    const [intent] = await stack.db.query(`SELECT status FROM sandbox_objects`);
    expect(intent.status).toBe('requires_payment_method');
  });

  it('refuses a return URL of another site and an unknown client secret', async () => {
    const { clientSecret } = await paymentIntent();
    const res = await post('/api/sandbox/confirm-payment', {
      clientSecret,
      card: card('4242424242424242'),
      returnUrl: 'https://evil.example/steal',
    }).expect(400);
    expect(res.body.message).toBe('returnUrl must be a page of this site');
    const unknown = await post('/api/sandbox/confirm-payment', {
      clientSecret: `pi_${'a'.repeat(24)}_secret_${'b'.repeat(24)}`,
      card: card('4242424242424242'),
      returnUrl: SUCCESS_URL,
    }).expect(404);
    expect(unknown.body.message).toBe('No payment matches this client secret.');
  });

  it.each([
    ['complete', 'succeeded', 'succeeded'],
    ['fail', 'failed', 'requires_payment_method'],
  ])('3155 requires authentication; %s → redirect_status %s', async (outcome, redirectStatus, verifiedStatus) => {
    const { clientSecret, id } = await paymentIntent();
    const res = await post('/api/sandbox/confirm-payment', { clientSecret, card: card('4000002500003155'), returnUrl: SUCCESS_URL }).expect(
      200,
    );
    const redirect = new URL(res.body.redirectUrl);
    expect(redirect.pathname).toBe('/api/sandbox/authenticate');
    expect(redirect.searchParams.get('client_secret')).toBe(clientSecret);

    const page = await http().get(`${redirect.pathname}${redirect.search}`).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('Test mode');
    expect(page.text).toContain('Complete authentication');
    expect(page.text).toContain('Fail authentication');

    const answer = await http()
      .post('/api/sandbox/authenticate')
      .type('form')
      .send({ client_secret: clientSecret, return_url: SUCCESS_URL, outcome })
      .expect(303);
    const back = new URL(answer.headers.location);
    expect(`${back.origin}${back.pathname}`).toBe('http://localhost:3000/success');
    expect(back.searchParams.get('plan')).toBe('full-payment');
    expect(back.searchParams.get('payment_intent')).toBe(id);
    expect(back.searchParams.get('payment_intent_client_secret')).toBe(clientSecret);
    expect(back.searchParams.get('redirect_status')).toBe(redirectStatus);

    expect((await http().get(`/api/verify-payment/${id}`).expect(200)).body.status).toBe(verifiedStatus);
    // The page is gone once the intent no longer waits for authentication.
    await http().get(`${redirect.pathname}${redirect.search}`).expect(404);
  });
});

describe('sandbox subscriptions', () => {
  async function confirmedSetup(number: string, email?: string) {
    const setup = await setupIntent(email);
    const res = await post('/api/sandbox/confirm-setup', {
      clientSecret: setup.clientSecret,
      card: card(number),
      returnUrl: CHECKOUT_URL,
    }).expect(200);
    return { ...setup, confirm: res.body };
  }

  it('4242: setup succeeds, confirm-subscription makes an active subscription, once', async () => {
    const setup = await confirmedSetup('4242424242424242');
    expect(setup.confirm).toEqual({ intent: { id: setup.id, status: 'succeeded', object: 'setup_intent' } });
    const body = { ...party(), setupIntentId: setup.id, plan: STANDARD.name, amount: STANDARD.amount };
    const res = await post('/api/confirm-subscription', body).expect(200);
    expect(res.body.subscriptionId).toMatch(/^sub_[0-9A-Za-z]{24}$/);
    const again = await post('/api/confirm-subscription', body).expect(200);
    expect(again.body.subscriptionId).toBe(res.body.subscriptionId);

    const verified = await http().get(`/api/verify-subscription/${res.body.subscriptionId}`).set('Cookie', buyerCookie).expect(200);
    expect(verified.body).toMatchObject({ status: 'active', amount: STANDARD.amount, plan: 'standard', customer_email: buyer });
    expect(await outboxJobs('order-paid')).toHaveLength(1);
    // Stripe does not promise an order of delivery either.
    expect((await storedSandboxEvents()).sort()).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'setup_intent.created',
      'setup_intent.succeeded',
    ]);
    // One job applies them: the subscription with its first invoice (one change, one job); the
    // setup intent's creation and success change nothing and owe none.
    const types = new Map<string, string>(
      (await stack.db.query(`SELECT id, type FROM payment_events`)).map((e: { id: string; type: string }) => [e.id, e.type]),
    );
    const jobs = (await outboxJobs('payment-event')).map((job) =>
      [job.payload.eventId, ...(job.payload.moreEventIds ?? [])].map((id: string) => types.get(id)),
    );
    expect(jobs).toEqual([['customer.subscription.created', 'invoice.paid']]);
  });

  it('9995: the card saves but the first invoice fails, so the subscription is incomplete', async () => {
    const setup = await confirmedSetup('4000000000009995');
    const res = await post('/api/confirm-subscription', {
      ...party(),
      setupIntentId: setup.id,
      plan: STANDARD.name,
      amount: STANDARD.amount,
    }).expect(200);
    const verified = await http().get(`/api/verify-subscription/${res.body.subscriptionId}`).expect(200);
    expect(verified.body.status).toBe('incomplete');
    expect(await storedSandboxEvents()).toContain('invoice.payment_failed');
    expect(await outboxJobs('order-paid')).toHaveLength(0);
  });

  it('0002 is declined at setup; confirm-subscription then refuses', async () => {
    const setup = await confirmedSetup('4000000000000002');
    expect(setup.confirm.error).toMatchObject({ code: 'card_declined', message: 'Your card was declined.' });
    const res = await post('/api/confirm-subscription', {
      ...party(),
      setupIntentId: setup.id,
      plan: STANDARD.name,
      amount: STANDARD.amount,
    }).expect(400);
    expect(res.body.message).toBe('Your card has not been confirmed yet. Please complete the card details and try again.');
  });

  it('3155 at setup redirects with setup_intent parameters', async () => {
    const setup = await confirmedSetup('4000002500003155');
    const redirect = new URL(setup.confirm.redirectUrl);
    const answer = await http()
      .post('/api/sandbox/authenticate')
      .type('form')
      .send({ client_secret: setup.clientSecret, return_url: CHECKOUT_URL, outcome: 'complete' })
      .expect(303);
    const back = new URL(answer.headers.location);
    expect(redirect.searchParams.get('return_url')).toBe(CHECKOUT_URL);
    expect(back.searchParams.get('setup_intent')).toBe(setup.id);
    expect(back.searchParams.get('setup_intent_client_secret')).toBe(setup.clientSecret);
    expect(back.searchParams.get('redirect_status')).toBe('succeeded');
    const res = await post('/api/confirm-subscription', {
      ...party(),
      setupIntentId: setup.id,
      plan: STANDARD.name,
      amount: STANDARD.amount,
    }).expect(200);
    expect((await http().get(`/api/verify-subscription/${res.body.subscriptionId}`)).body.status).toBe('active');
  });

  it.each([
    ['complete', 'active', ['invoice.paid', 'customer.subscription.updated'], 1],
    ['fail', 'incomplete', ['invoice.payment_failed'], 0],
  ] as const)(
    '3184 asks again for the first payment: confirm-subscription hands back its secret, next-action authenticates (%s)',
    async (outcome, verifiedStatus, invoiceEvents, paidJobs) => {
      const setup = await confirmedSetup('4000002760003184');
      // Authenticated at setup like 3155…
      await http()
        .post('/api/sandbox/authenticate')
        .type('form')
        .send({ client_secret: setup.clientSecret, return_url: CHECKOUT_URL, outcome: 'complete' })
        .expect(303);
      const body = { ...party(), setupIntentId: setup.id, plan: STANDARD.name, amount: STANDARD.amount };
      const res = await post('/api/confirm-subscription', body).expect(200);
      // …but the subscription's first payment asks again: the browser gets that payment's secret.
      expect(res.body).toEqual({
        subscriptionId: expect.stringMatching(/^sub_/),
        clientSecret: expect.stringMatching(/^pi_\w{24}_secret_\w{24}$/),
      });
      const { subscriptionId, clientSecret } = res.body as { subscriptionId: string; clientSecret: string };
      expect((await stack.db.query('SELECT status FROM orders WHERE subscription_id = $1', [subscriptionId]))[0].status).toBe('incomplete');
      // A reload before authenticating gets the same subscription and the same payment.
      expect((await post('/api/confirm-subscription', body).expect(200)).body).toEqual(res.body);

      const SUCCESS_URL = CHECKOUT_URL.replace('/checkout', '/success');
      const next = await post('/api/sandbox/next-action', { clientSecret, returnUrl: SUCCESS_URL }).expect(200);
      const page = new URL(next.body.redirectUrl);
      expect(page.pathname).toBe('/api/sandbox/authenticate');
      expect(page.searchParams.get('client_secret')).toBe(clientSecret);
      await http().get(`${page.pathname}${page.search}`).expect(200);
      const answer = await http()
        .post('/api/sandbox/authenticate')
        .type('form')
        .send({ client_secret: clientSecret, return_url: SUCCESS_URL, outcome })
        .expect(303);
      expect(new URL(answer.headers.location).searchParams.get('redirect_status')).toBe(outcome === 'complete' ? 'succeeded' : 'failed');

      expect((await http().get(`/api/verify-subscription/${subscriptionId}`).expect(200)).body.status).toBe(verifiedStatus);
      const events = await storedSandboxEvents();
      for (const type of invoiceEvents) expect(events.filter((e) => e === type)).toHaveLength(1);
      expect(await outboxJobs('order-paid')).toHaveLength(paidJobs);
      // Settled: next-action now answers with the payment as it stands, with no page to visit.
      const after = await post('/api/sandbox/next-action', { clientSecret, returnUrl: SUCCESS_URL }).expect(200);
      expect(after.body).not.toHaveProperty('redirectUrl');
    },
  );

  it('refuses a second standard membership for an e-mail that has one running, with a 409, before any charge', async () => {
    const confirm = (setupIntentId: string) => ({ ...party(), setupIntentId, plan: STANDARD.name, amount: STANDARD.amount });
    // Two checkouts opened side by side, before either is paid.
    const first = await confirmedSetup('4242424242424242');
    const second = await confirmedSetup('4242424242424242');
    await post('/api/confirm-subscription', confirm(first.id)).expect(200);
    const subscriptions = async () => (await stack.db.query(`SELECT id FROM sandbox_objects WHERE object = 'subscription'`)).length;
    expect(await subscriptions()).toBe(1);

    const message = `This email address already has an active ${STANDARD.name} membership, so nothing was charged. To change or cancel it, please contact support.`;
    // The second checkout's confirmation would charge again: refused, and nothing is created.
    const refused = await post('/api/confirm-subscription', confirm(second.id)).expect(409);
    expect(refused.body.message).toBe(message);
    expect(await subscriptions()).toBe(1);
    // A new checkout for the same address (any case) is refused at once, before a card is asked for.
    const orders = (await stack.db.query('SELECT id FROM orders')).length;
    const again = await post('/api/create-setup-intent', party(buyer.toUpperCase())).expect(409);
    expect(again.body.message).toBe(message);
    expect(await stack.db.query('SELECT id FROM orders')).toHaveLength(orders);
    // Another address is not affected.
    await post('/api/create-setup-intent', party('someone.else@example.com')).expect(200);
  });

  describe('two tabs confirming at once', () => {
    const UNDER_WAY = `A payment for a ${STANDARD.name} membership with this email address is already under way in another window, so nothing was charged here. Please finish it there, or try again in 15 minutes.`;
    const AWAITING_BANK = `A payment for a ${STANDARD.name} membership with this email address is waiting for your bank's confirmation in another window, so nothing was charged here. Please finish it there.`;
    const confirm = (setupIntentId: string) => ({ ...party(), setupIntentId, plan: STANDARD.name, amount: STANDARD.amount });
    const subscriptions = async (): Promise<Array<{ order_id: string; status: string }>> =>
      stack.db.query(`SELECT order_id, status FROM sandbox_objects WHERE object = 'subscription'`);
    const paidInvoices = async () => (await stack.db.query(`SELECT 1 FROM payment_events WHERE type = 'invoice.paid'`)).length;

    /**
     * Holds the first subscription create at the provider until released: the second tab's
     * confirmation then arrives while the first's is in flight, every time.
     */
    function holdFirstCreate() {
      const gateway = stack.api!.get<PaymentGateway>(PAYMENT_GATEWAY);
      const create = gateway.createSubscription.bind(gateway);
      let entered!: () => void;
      let release!: () => void;
      const inFlight = new Promise<void>((resolve) => (entered = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      let calls = 0;
      const spy = jest.spyOn(gateway, 'createSubscription').mockImplementation(async (...args) => {
        if (++calls === 1) {
          entered();
          await released;
        }
        return create(...args);
      });
      return { inFlight, release, restore: () => spy.mockRestore() };
    }

    it('creates and charges one subscription; the other tab gets a readable 409 and is never charged', async () => {
      const first = await confirmedSetup('4242424242424242');
      const second = await confirmedSetup('4242424242424242');
      const hold = holdFirstCreate();
      try {
        const firstAnswer = post('/api/confirm-subscription', confirm(first.id)).then((res) => res);
        await hold.inFlight;
        const refused = await post('/api/confirm-subscription', confirm(second.id));
        expect(refused.status).toBe(409);
        expect(refused.body.message).toBe(UNDER_WAY);
        hold.release();
        expect((await firstAnswer).status).toBe(200);
      } finally {
        hold.release();
        hold.restore();
      }
      const [firstOrder] = await stack.db.query(`SELECT id FROM orders WHERE setup_intent_id = $1`, [first.id]);
      expect(await subscriptions()).toEqual([{ order_id: firstOrder.id, status: 'active' }]);
      expect(await paidInvoices()).toBe(1);
      const statuses = await stack.db.query(`SELECT setup_intent_id, status FROM orders ORDER BY created_at`);
      expect(statuses).toEqual([
        { setup_intent_id: first.id, status: 'active' },
        { setup_intent_id: second.id, status: 'created' },
      ]);
      // Once the first is a membership, the second tab is told so.
      const again = await post('/api/confirm-subscription', confirm(second.id)).expect(409);
      expect(again.body.message.startsWith(`This email address already has an active ${STANDARD.name} membership`)).toBe(true);
    });

    it('keeps the other tab out while the first payment waits for the bank, however long, and lets it in once a payment was declined', async () => {
      const waiting = await confirmedSetup('4000002760003184');
      await http()
        .post('/api/sandbox/authenticate')
        .type('form')
        .send({ client_secret: waiting.clientSecret, return_url: CHECKOUT_URL, outcome: 'complete' })
        .expect(303);
      const other = await confirmedSetup('4242424242424242');
      expect((await post('/api/confirm-subscription', confirm(waiting.id)).expect(200)).body.clientSecret).toEqual(expect.any(String));
      expect((await post('/api/confirm-subscription', confirm(other.id)).expect(409)).body.message).toBe(AWAITING_BANK);
      expect(await subscriptions()).toHaveLength(1);

      // The bank takes longer than the claim's 15 minutes: the claim lives as long as the payment waits.
      await stack.db.query(`UPDATE orders SET membership_claimed_at = now() - interval '20 minutes' WHERE setup_intent_id = $1`, [
        waiting.id,
      ]);
      expect((await post('/api/confirm-subscription', confirm(other.id)).expect(409)).body.message).toBe(AWAITING_BANK);
      expect(await subscriptions()).toHaveLength(1);

      // A first payment declined charged nothing and holds nothing: the next checkout goes ahead.
      buyer = `declined-${buyer}`;
      const declined = await confirmedSetup('4000000000009995');
      const retried = await confirmedSetup('4242424242424242');
      await post('/api/confirm-subscription', confirm(declined.id)).expect(200);
      await post('/api/confirm-subscription', confirm(retried.id)).expect(200);
      expect(await paidInvoices()).toBe(1);
    });
  });

  it("refuses a plan, amount or e-mail that is not the checkout's, and an unknown setup intent", async () => {
    const setup = await confirmedSetup('4242424242424242');
    let res = await post('/api/confirm-subscription', {
      ...party(),
      setupIntentId: setup.id,
      plan: PREMIUM.name,
      amount: PREMIUM.amount,
    }).expect(400);
    expect(res.body.message).toBe(`The plan "${PREMIUM.name}" does not match this checkout, which is for "${STANDARD.name}".`);
    res = await post('/api/confirm-subscription', { ...party(), setupIntentId: setup.id, plan: STANDARD.name, amount: 1 }).expect(400);
    expect(res.body.message).toBe(
      `The amount ${price(1)} does not match the price of "${STANDARD.name}", which is ${price(STANDARD.amount)}.`,
    );
    res = await post('/api/confirm-subscription', {
      ...party('other@example.com'),
      setupIntentId: setup.id,
      plan: STANDARD.name,
      amount: STANDARD.amount,
    }).expect(400);
    expect(res.body.message).toBe('This card confirmation belongs to another checkout.');
    res = await post('/api/confirm-subscription', {
      ...party(),
      setupIntentId: 'seti_unknown',
      plan: STANDARD.name,
      amount: STANDARD.amount,
    }).expect(404);
    expect(res.body.message).toBe('No checkout matches this setupIntentId. Please reload the page and try again.');
    expect(await stack.db.query(`SELECT id FROM sandbox_objects WHERE object = 'subscription'`)).toHaveLength(0);
  });
});

describe('verification', () => {
  it.each([
    '/api/verify-payment/pi_doesnotexist000000000000',
    '/api/verify-payment/not-an-id',
    '/api/verify-payment/%00',
    '/api/verify-subscription/sub_doesnotexist00000000000',
  ])('%s → 404 with a message', async (path) => {
    const res = await http().get(path).expect(404);
    expect(res.body.message).toMatch(/^No (payment|subscription) found with this id\.$/);
  });

  it('shares one provider read among concurrent polls and answers later polls from Postgres', async () => {
    const { clientSecret, id } = await paymentIntent();
    await post('/api/sandbox/confirm-payment', { clientSecret, card: card('4242424242424242'), returnUrl: SUCCESS_URL }).expect(200);
    const gateway = stack.api!.get<PaymentGateway>(PAYMENT_GATEWAY);
    const reads = jest.spyOn(gateway, 'readCharge');
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => http().get(`/api/verify-payment/${id}`)));
      expect(answers.map((a) => a.body.status)).toEqual(Array(20).fill('succeeded'));
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('reads the provider at most once per refresh window while a payment is unsettled', async () => {
    const { id } = await paymentIntent();
    const gateway = stack.api!.get<PaymentGateway>(PAYMENT_GATEWAY);
    const reads = jest.spyOn(gateway, 'readCharge');
    try {
      for (let i = 0; i < 5; i++)
        expect((await http().get(`/api/verify-payment/${id}`).expect(200)).body.status).toBe('requires_payment_method');
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });
});

describe('POST /api/webhooks/stripe', () => {
  const event = (id = 'evt_test_webhook_1') =>
    JSON.stringify({ id, object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_x', object: 'payment_intent' } } });
  const send = (payload: string, header: string) =>
    http().post('/api/webhooks/stripe').set('Content-Type', 'application/json').set('Stripe-Signature', header).send(payload);

  it('refuses a bad signature, another secret, an old timestamp and a missing header with 400', async () => {
    const payload = event();
    let res = await send(payload, `t=${Math.floor(Date.now() / 1000)},v1=deadbeef`).expect(400);
    expect(res.body.message).toBe('Webhook signature does not match.');
    res = await send(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someoneelse00000000000000' })).expect(400);
    expect(res.body.message).toBe('Webhook signature does not match.');
    const old = Math.floor(Date.now() / 1000) - 301;
    res = await send(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: old })).expect(400);
    expect(res.body.message).toBe('Webhook timestamp is more than 300 seconds old.');
    res = await http().post('/api/webhooks/stripe').set('Content-Type', 'application/json').send(payload).expect(400);
    expect(res.body.message).toBe('Missing Stripe-Signature header.');
    // Re-serialised JSON is not what was signed: the raw bytes are checked.
    const spaced = payload.replace(/,/g, ', ');
    res = await send(spaced, Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET })).expect(400);
    expect(res.body.message).toBe('Webhook signature does not match.');
    await send('not json', Stripe.webhooks.generateTestHeaderString({ payload: 'not json', secret: SECRET })).expect(400);
    expect(await stack.db.query('SELECT id FROM payment_events')).toHaveLength(0);
  });

  it('stores an event once and owes one apply job, however often it is delivered', async () => {
    const payload = event('evt_test_duplicate');
    for (let i = 0; i < 3; i++) {
      const res = await send(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET })).expect(200);
      expect(res.body).toEqual({ received: true, duplicate: i > 0 });
    }
    expect(await stack.db.query('SELECT id, type FROM payment_events')).toEqual([
      { id: 'evt_test_duplicate', type: 'payment_intent.succeeded' },
    ]);
    const jobs = await outboxJobs('payment-event');
    expect(jobs.map((j) => j.payload)).toEqual([{ eventId: 'evt_test_duplicate' }]);
  });
});

describe('rate limits on intent creation', () => {
  it('answers 429 with a readable message after too many attempts from one client', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++)
      await post(
        '/api/create-payment-intent',
        { ...party(`client${i}@example.com`), plan: FULL_PAYMENT.name, amount: FULL_PAYMENT.amount },
        ip,
      ).expect(200);
    const res = await post('/api/create-setup-intent', party('client9@example.com'), ip).expect(429);
    expect(res.body.message).toBe('Too many payment attempts from this device. Please wait a few minutes and try again.');
  });

  it('answers 429 after too many attempts for one e-mail address from different clients', async () => {
    for (let i = 0; i < 4; i++)
      await post('/api/create-payment-intent', {
        ...party('Card.Tester@example.com'),
        plan: FULL_PAYMENT.name,
        amount: FULL_PAYMENT.amount,
      }).expect(200);
    const res = await post('/api/create-payment-intent', {
      ...party('card.tester@EXAMPLE.com'),
      plan: FULL_PAYMENT.name,
      amount: FULL_PAYMENT.amount,
    }).expect(429);
    expect(res.body.message).toBe('Too many payment attempts for this email address. Please wait a few minutes and try again.');
  });
});

describe('rate limits on subscription confirmation', () => {
  const confirmation = (setupIntentId: string) => ({ ...party(), setupIntentId, plan: STANDARD.name, amount: STANDARD.amount });

  it('answers 429 after RATE_LIMIT_CONFIRMATIONS_PER_ORDER confirmations of one checkout, from whichever clients', async () => {
    const setup = await setupIntent();
    await post('/api/sandbox/confirm-setup', {
      clientSecret: setup.clientSecret,
      card: card('4242424242424242'),
      returnUrl: CHECKOUT_URL,
    }).expect(200);
    // Every repeat answers the one subscription (a double click); past the limit, a readable 429.
    for (let i = 1; i <= 5; i++) await post('/api/confirm-subscription', confirmation(setup.id)).expect(200);
    const res = await post('/api/confirm-subscription', confirmation(setup.id)).expect(429);
    expect(res.body.message).toBe('Too many attempts to confirm this payment. Please wait a few minutes and try again.');
  });

  it('answers 429 after RATE_LIMIT_INTENTS_PER_CLIENT confirmations from one client, whatever the checkout', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) await post('/api/confirm-subscription', confirmation(`seti_probe${i}`), ip).expect(404);
    const res = await post('/api/confirm-subscription', confirmation('seti_probe9'), ip).expect(429);
    expect(res.body.message).toBe('Too many payment attempts from this device. Please wait a few minutes and try again.');
  });
});

describe('sandbox refunds', () => {
  it('refunds a paid charge once: one refund record, one refund.created event stored', async () => {
    const { clientSecret, id } = await paymentIntent();
    await post('/api/sandbox/confirm-payment', { clientSecret, card: card('4242424242424242'), returnUrl: SUCCESS_URL }).expect(200);
    const [order] = await stack.db.query(`SELECT id FROM orders WHERE payment_intent_id = $1`, [id]);
    // The gateway asked directly (admin-refunds.spec.ts refunds through the admin API).
    const gateway = stack.api!.get<PaymentGateway>(PAYMENT_GATEWAY);
    const requestKey = '0f1e2d3c-4b5a-4968-8776-655443322110';
    const refund = await gateway.refund({ orderId: order.id, paymentId: id, requestKey });
    expect(refund).toMatchObject({ refundId: expect.stringMatching(/^re_/), state: 'succeeded', amountCents: FULL_CENTS, requestKey });
    await expect(gateway.refund({ orderId: order.id, paymentId: id, requestKey })).resolves.toEqual(refund);
    expect(await stack.db.query(`SELECT id, status, amount_cents FROM sandbox_objects WHERE object = 'refund'`)).toEqual([
      { id: refund.refundId, status: 'succeeded', amount_cents: FULL_CENTS },
    ]);
    expect((await storedSandboxEvents()).filter((type) => type === 'refund.created')).toHaveLength(1);
  });
});
