import request from 'supertest';
import { OFFERS } from '@contracts/plans';
import { SmtpSink } from '../fakes/smtp-sink';
import { clientAddresses, outboxDrained, resetRateLimits, waitFor } from './support/stack';
import { stripeSpecStack } from './support/stripe-spec';

/**
 * The cancellation flow's offers with Stripe (its fake): a pause is `subscriptions.update` with
 * pause_collection (behavior void, resumes_at an hour before the renewal that ends it) and the
 * save offer is the admin's coupon made a Stripe coupon of duration once, set as the
 * subscription's discount; each call under an idempotency key of the order.
 */
const WEBHOOK_SECRET = 'whsec_cancellationstripe000000000';
const SUBSCRIPTION = 'sub_fake000000000000000001';
const LINK = /\/account\?token=([A-Za-z0-9_-]+)/;
const smtp = new SmtpSink();
const spec = stripeSpecStack({
  webhookSecret: WEBHOOK_SECRET,
  env: async () => ({ SMTP_URL: await smtp.start(), PAYMENT_PROVIDER: 'stripe' }),
  fakes: [smtp],
  truncate: 'orders, payment_events, sandbox_objects, account_link_tokens, account_sessions, coupons',
});
const { stripe } = spec;
let counter = 0;
const nextClient = clientAddresses(58);
let buyer = '';

const post = (path: string, body: object) => request(spec.stack.url).post(path).set('X-Forwarded-For', nextClient()).send(body);
const orderOf = async () => (await spec.stack.db.query(`SELECT id, paid_effects, paused_until FROM orders WHERE email = $1`, [buyer]))[0];
const updates = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${SUBSCRIPTION}`);

beforeEach(async () => {
  await resetRateLimits();
  buyer = `stripe-cancel-${++counter}@example.com`;
});

async function signedInMember(): Promise<{ orderId: string; session: { cookie: string; csrf: string } }> {
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
  await post('/api/account/link', { email: buyer }).expect(202);
  const mail = await waitFor(() => smtp.messages.find((m) => m.envelope.to.includes(buyer)), 'the sign-in e-mail');
  const [, token] = LINK.exec(mail?.text ?? '') ?? [];
  const res = await post('/api/account/session', { token }).expect(200);
  return { orderId: (await orderOf()).id, session: { cookie: String(res.headers['set-cookie']).split(';')[0], csrf: res.body.csrfToken } };
}

const authed = (session: { cookie: string; csrf: string }, path: string, body: object) =>
  post(path, body).set('Cookie', session.cookie).set('x-csrf-token', session.csrf);

it('pauses with pause_collection (behavior void) until an hour before the renewal after the paused months', async () => {
  const { orderId, session } = await signedInMember();
  const paused = await authed(session, '/api/account/pause', { orderId, reason: 'not_using', months: 2 }).expect(200);

  // The fake's period ends on 15 January 2030: two months later, less an hour.
  const resumesAt = Date.UTC(2030, 2, 15) - 3_600_000;
  expect(paused.body).toMatchObject({ state: 'paused', pausedUntil: new Date(resumesAt).toISOString() });
  const [update] = updates();
  expect(update.params).toMatchObject({ 'pause_collection[behavior]': 'void', 'pause_collection[resumes_at]': String(resumesAt / 1000) });
  expect(update.idempotencyKey).toMatch(new RegExp(`^order:${orderId}:pause-collection:`));
  expect(stripe.subscription(SUBSCRIPTION)).toMatchObject({ pause_collection: { behavior: 'void', resumes_at: resumesAt / 1000 } });
  expect((await orderOf()).paused_until).toEqual(new Date(resumesAt));
});

it("sets the save offer's coupon, made a Stripe coupon of duration once, as the subscription's discount", async () => {
  const [coupon] = await spec.stack.db.query(
    `INSERT INTO coupons (code, kind, percent_off, plan_ids, duration_months, save_offer) VALUES ('STAY25', 'percent', 25, $1, 3, true) RETURNING id`,
    [[OFFERS.default.id]],
  );
  const { orderId, session } = await signedInMember();
  await authed(session, '/api/account/save-offer', { orderId, reason: 'too_expensive' }).expect(200);

  // Once, whatever months the coupon gives at checkout: the save offer is for the next renewal only.
  expect(stripe.coupons.get(`save-offer-${coupon.id}`)).toMatchObject({ percent_off: 25, duration: 'once', name: 'STAY25' });
  const [update] = updates();
  expect(update.params).toMatchObject({ 'discounts[0][coupon]': `save-offer-${coupon.id}` });
  expect(update.idempotencyKey).toMatch(new RegExp(`^order:${orderId}:save-offer:`));
  expect(stripe.subscription(SUBSCRIPTION)).toMatchObject({ discounts: [`save-offer-${coupon.id}`] });
  // Once per member: the offer is gone from the account, and asking again sends nothing more.
  await authed(session, '/api/account/save-offer', { orderId, reason: 'too_expensive' }).expect(409);
  expect(updates()).toHaveLength(1);
});
