import request from 'supertest';
import { OFFERS } from '@contracts/plans';
import { SmtpSink } from '../fakes/smtp-sink';
import { clientAddresses, outboxDrained, resetRateLimits, waitFor } from './support/stack';
import { stripeSpecStack } from './support/stripe-spec';

/**
 * The account page with Stripe (its fake): cancel and resume are `subscriptions.update` with
 * cancel_at_period_end and an idempotency key; 'Manage billing' opens the Billing Portal; a change
 * made there arrives as `customer.subscription.updated`, which the real worker applies to the
 * order by re-reading the subscription.
 */
const WEBHOOK_SECRET = 'whsec_accountstripesecret00000000';
const SUBSCRIPTION = 'sub_fake000000000000000001';
const LINK = /\/account\?token=([A-Za-z0-9_-]+)/;
const smtp = new SmtpSink();
const spec = stripeSpecStack({
  webhookSecret: WEBHOOK_SECRET,
  env: async () => ({ SMTP_URL: await smtp.start(), PAYMENT_PROVIDER: 'stripe' }),
  fakes: [smtp],
  truncate: 'orders, payment_events, sandbox_objects, account_link_tokens, account_sessions',
});
const { stripe } = spec;
let counter = 0;
const nextClient = clientAddresses(10);
let buyer = '';

const http = () => request(spec.stack.url);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', nextClient()).send(body);

beforeEach(async () => {
  await resetRateLimits();
  buyer = `stripe-account-${++counter}@example.com`;
});

const orderOf = async () =>
  (await spec.stack.db.query(`SELECT id, paid_effects, cancel_at_period_end, current_period_end FROM orders WHERE email = $1`, [buyer]))[0];

async function subscribe(): Promise<string> {
  await post('/api/create-setup-intent', { email: buyer, name: 'Stripe Member', source: 'clear' }).expect(200);
  await post('/api/confirm-subscription', {
    email: buyer,
    name: 'Stripe Member',
    source: 'clear',
    setupIntentId: 'seti_fake000000000000000001',
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  }).expect(200);
  await waitFor(async () => Object.keys((await orderOf())?.paid_effects ?? {}).length === 4, 'first payment settled');
  await outboxDrained(spec.stack.db);
  smtp.reset();
  return (await orderOf()).id;
}

async function signIn(): Promise<{ cookie: string; csrf: string }> {
  await post('/api/account/link', { email: buyer }).expect(202);
  const mail = await waitFor(() => smtp.messages.find((m) => m.envelope.to.includes(buyer)), 'the sign-in e-mail');
  const [, token] = LINK.exec(mail?.text ?? '') ?? [];
  const res = await post('/api/account/session', { token }).expect(200);
  return { cookie: String(res.headers['set-cookie']).split(';')[0], csrf: res.body.csrfToken };
}

const authed = (session: { cookie: string; csrf: string }, path: string, body: object) =>
  post(path, body).set('Cookie', session.cookie).set('x-csrf-token', session.csrf);

const subscriptionUpdated = (id: string, orderId: string) =>
  spec.event(
    'customer.subscription.updated',
    { id: SUBSCRIPTION, object: 'subscription', status: 'active', metadata: { order_id: orderId } },
    { id },
  );

it('cancels and resumes through subscriptions.update with cancel_at_period_end and a fresh idempotency key each', async () => {
  const orderId = await subscribe();
  const session = await signIn();
  const canceled = await authed(session, '/api/account/cancel', { orderId }).expect(200);
  expect(canceled.body).toMatchObject({ state: 'canceling', statusText: 'Canceling on January 15, 2030', canResume: true });
  const resumed = await authed(session, '/api/account/resume', { orderId }).expect(200);
  expect(resumed.body).toMatchObject({ state: 'active', statusText: 'Active', cancelAtPeriodEnd: false });
  await authed(session, '/api/account/cancel', { orderId }).expect(200);

  const updates = stripe.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${SUBSCRIPTION}`);
  expect(updates.map((r) => r.params.cancel_at_period_end)).toEqual(['true', 'false', 'true']);
  const keys = updates.map((r) => r.idempotencyKey);
  expect(keys.every((key) => key?.startsWith(`order:${orderId}:cancel-at-period-end:`))).toBe(true);
  expect(new Set(keys).size).toBe(3);
  expect(await orderOf()).toMatchObject({ cancel_at_period_end: true, current_period_end: new Date(Date.UTC(2030, 0, 15)) });
});

it('opens the Billing Portal for the buyer, and a change made there reaches the order by webhook', async () => {
  const orderId = await subscribe();
  const session = await signIn();
  const portal = await authed(session, '/api/account/billing-portal', { orderId }).expect(200);
  expect(portal.body).toEqual({ url: 'https://billing.stripe.com/p/session/test_fake' });
  const [call] = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions');
  expect(call.params).toMatchObject({ customer: 'cus_fake000000000000000001', return_url: new URL('/account', spec.stack.url).toString() });

  // The buyer cancels in the portal: Stripe changes the subscription and tells us by webhook.
  stripe.currentPeriodEnd = Math.floor(Date.UTC(2031, 5, 1) / 1000);
  const stripeSide = await request(`http://127.0.0.1:${stripe.port}`)
    .post(`/v1/subscriptions/${SUBSCRIPTION}`)
    .type('form')
    .send({ cancel_at_period_end: 'true' });
  expect(stripeSide.status).toBe(200);
  await spec.webhook(subscriptionUpdated('evt_portal_cancel', orderId));
  await waitFor(async () => (await orderOf()).cancel_at_period_end === true, 'the portal change applied');
  expect((await orderOf()).current_period_end).toEqual(new Date(Date.UTC(2031, 5, 1)));
  const page = await http().get('/api/account').set('Cookie', session.cookie).expect(200);
  expect(page.body.memberships[0]).toMatchObject({ state: 'canceling', statusText: 'Canceling on June 1, 2031', canResume: true });

  // A replay of the same event changes nothing; a later resume in the portal arrives the same way.
  await spec.webhook(subscriptionUpdated('evt_portal_cancel', orderId));
  await request(`http://127.0.0.1:${stripe.port}`)
    .post(`/v1/subscriptions/${SUBSCRIPTION}`)
    .type('form')
    .send({ cancel_at_period_end: 'false' });
  await spec.webhook(subscriptionUpdated('evt_portal_resume', orderId));
  await waitFor(async () => (await orderOf()).cancel_at_period_end === false, 'the portal resume applied');
  await outboxDrained(spec.stack.db);
});
