import request from 'supertest';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { FakeGa4MpServer } from '../fakes/ga4-mp-server';
import { SmtpSink } from '../fakes/smtp-sink';
import { paymentsOf, paymentsSettled } from './support/payments';
import { clientAddresses, outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

/** Plans and prices from the site folder, so a seller's price change or rename keeps this green. */
const FULL_PAYMENT = planOf('full-payment');
const FULL_CENTS = toMinorUnits(FULL_PAYMENT.amount, CURRENCY);
const FULL_SHOWN = formatMoney(FULL_CENTS, CURRENCY, { decimals: 'always' });

/**
 * Stripe's dispute test card in the sandbox, through the real worker: a payment of
 * 4000 0000 0000 0259 succeeds and is disputed at once (`charge.dispute.created`), and the
 * sandbox's evidence control decides it as Stripe's test evidence does. A lost dispute is
 * recorded as a refund (reason 'dispute') that ends access, with a refund's effects once; a won
 * one keeps access and reverses nothing. Every successful charge of the card is disputed,
 * renewals included.
 */
/** The default site's owner (site.json brand.ownerEmail) receives the dispute e-mails. */
const OWNER = String(site.brand.ownerEmail);
const COOKIES = '_ga=GA1.1.1234567890.1700000000';
const card = (number: string) => ({ number, expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' });
const DISPUTED = card('4000 0000 0000 0259');

const affiliate = new FakeAffiliateServer();
const ga4 = new FakeGa4MpServer();
const smtp = new SmtpSink();
let stack: Stack;
let counter = 0;
let buyer = '';

const client = clientAddresses(83);
const post = (path: string, body: object) =>
  request(stack.url).post(path).set('X-Forwarded-For', client()).set('Cookie', COOKIES).send(body);
const evidence = (disputeId: string, body: object) => post(`/api/sandbox/disputes/${disputeId}/evidence`, body);

const orderOf = async (email = buyer) => (await stack.db.query(`SELECT * FROM orders WHERE email = $1`, [email]))[0];
const disputesOf = async (orderId: string) =>
  stack.db.query(
    `SELECT d.provider_dispute_id, d.status, d.amount_cents, p.provider_payment_id
       FROM disputes d JOIN payments p ON p.id = d.payment_id WHERE d.order_id = $1 ORDER BY p.sequence`,
    [orderId],
  );
const refundsOf = async (orderId: string) =>
  stack.db.query(`SELECT provider_refund_id, amount_cents, status, reason, ends_access, effects FROM refunds WHERE order_id = $1`, [
    orderId,
  ]);
const membershipOf = async (email = buyer) =>
  (await stack.db.query(`SELECT status FROM memberships WHERE email_normalized = $1`, [email]))[0]?.status as string | undefined;
const ownerMails = () => smtp.messages.filter((m) => m.envelope.to.includes(OWNER)).map((m) => m.subject);
const ga4Refunds = () => ga4.eventsAtDoor().filter((e) => e.identity.startsWith('refund:'));
const unapplied = () => stack.db.query(`SELECT type FROM payment_events WHERE applied_at IS NULL`);

/** A live Full Payment order with a referral, paid with the dispute card; resolves with its dispute's id once recorded as disputed. */
async function buyFullPaymentDisputed(): Promise<string> {
  const intent = await post('/api/create-payment-intent', {
    email: buyer,
    name: 'Dee Spute',
    source: 'clear',
    referral: 'partner9',
    plan: FULL_PAYMENT.name,
    amount: FULL_PAYMENT.amount,
  }).expect(200);
  // As checkout records it with a Stripe live key: only a live order's refund reverses a sale and reaches GA4.
  await stack.db.query(`UPDATE orders SET livemode = true WHERE email = $1`, [buyer]);
  const confirmed = await post('/api/sandbox/confirm-payment', {
    clientSecret: intent.body.clientSecret,
    card: DISPUTED,
    returnUrl: `${stack.url}/success`,
  }).expect(200);
  expect(confirmed.body).toMatchObject({ intent: { status: 'succeeded' } });
  await waitFor(async () => (await orderOf())?.dispute_status === 'disputed', 'the payment to be disputed');
  await waitFor(async () => Object.keys((await orderOf()).paid_effects ?? {}).length === 4, 'the paid effects');
  await outboxDrained(stack.db);
  const order = await orderOf();
  expect(order).toMatchObject({ status: 'succeeded', access_revoked_at: null });
  const [dispute] = await disputesOf(order.id);
  expect(await disputesOf(order.id)).toEqual([
    {
      provider_dispute_id: expect.stringMatching(/^dp_[0-9A-Za-z]{24}$/),
      status: 'disputed',
      amount_cents: FULL_CENTS,
      provider_payment_id: order.payment_intent_id,
    },
  ]);
  return dispute.provider_dispute_id;
}

beforeAll(async () => {
  stack = await startStack({
    SANDBOX_WEBHOOK_SECRET: 'whsec_disputessecret0000000000000',
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    AFFILIATE_API_URL: await affiliate.start(),
    AFFILIATE_API_KEY: 'affiliate-key',
    GA4_MP_URL: await ga4.start(),
    GA4_MEASUREMENT_ID: 'G-DISPUTES1',
    GA4_API_SECRET: 'ga4-secret',
    SMTP_URL: await smtp.start(),
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    RATE_LIMIT_CONFIRMATIONS_PER_ORDER: '1000',
    JOB_RETRY_HORIZON_S: '120',
  });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all([affiliate.stop(), ga4.stop(), smtp.stop()]);
});

beforeEach(async () => {
  await outboxDrained(stack.db);
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects, memberships CASCADE');
  await stack.db.query('UPDATE sandbox_clock SET offset_seconds = 0');
  for (const fake of [affiliate, ga4, smtp]) fake.reset();
  buyer = `dispute-buyer-${++counter}@example.com`;
});

it('a 0259 payment is disputed at once; losing evidence ends access with a refund of reason dispute, its effects once', async () => {
  const disputeId = await buyFullPaymentDisputed();
  expect(await membershipOf()).toBe('active');

  expect((await evidence(disputeId, { evidence: 'losing_evidence' }).expect(200)).body).toEqual({ id: disputeId, status: 'lost' });
  // The same evidence again answers the same; the other evidence cannot reopen a closed dispute.
  expect((await evidence(disputeId, { evidence: 'losing_evidence' }).expect(200)).body).toEqual({ id: disputeId, status: 'lost' });
  expect((await evidence(disputeId, { evidence: 'winning_evidence' }).expect(409)).body.message).toBe(
    'This dispute is already closed as lost.',
  );
  const { id: orderId } = await orderOf();
  await waitFor(async () => {
    const [refund] = await refundsOf(orderId);
    return refund !== undefined && Object.keys(refund.effects).length === 4;
  }, 'the refund effects');
  await outboxDrained(stack.db);

  expect(await orderOf()).toMatchObject({ dispute_status: 'lost', refunded_cents: FULL_CENTS, access_revoked_at: expect.any(Date) });
  expect(await membershipOf()).toBe('ended');
  expect(await disputesOf(orderId)).toMatchObject([{ provider_dispute_id: disputeId, status: 'lost' }]);
  expect(await refundsOf(orderId)).toEqual([
    {
      provider_refund_id: disputeId,
      amount_cents: FULL_CENTS,
      status: 'succeeded',
      reason: 'dispute',
      ends_access: true,
      effects: {
        'refund-email': 'skipped: dispute',
        'affiliate-refund': 'sent',
        'ga4-refund': 'sent',
        'cancel-subscription': 'skipped: not a subscription',
      },
    },
  ]);
  expect(exactlyOnceProblems(affiliate.refundsAtDoor(), [disputeId])).toEqual([]);
  expect(ga4Refunds()).toHaveLength(1);
  expect(ownerMails()).toEqual([
    `[${site.brand.name}] Payment disputed: ${FULL_SHOWN}`,
    `[${site.brand.name}] Dispute lost: ${FULL_SHOWN}`,
  ]);
  // Stripe's events of the decision, each applied: under review, then closed.
  expect(
    (await stack.db.query(`SELECT type FROM payment_events WHERE type LIKE 'charge.dispute.%' ORDER BY type`)).map(
      (e: { type: string }) => e.type,
    ),
  ).toEqual(['charge.dispute.closed', 'charge.dispute.created', 'charge.dispute.updated']);
  expect(await unapplied()).toEqual([]);
});

it('winning evidence closes the dispute won: access kept, nothing refunded or reversed', async () => {
  const disputeId = await buyFullPaymentDisputed();
  expect((await evidence(disputeId, { evidence: 'winning_evidence' }).expect(200)).body).toEqual({ id: disputeId, status: 'won' });
  await waitFor(async () => (await orderOf()).dispute_status === 'won', 'the dispute to be won');
  await outboxDrained(stack.db);

  const order = await orderOf();
  expect(order).toMatchObject({ status: 'succeeded', refunded_cents: 0, access_revoked_at: null });
  expect(await membershipOf()).toBe('active');
  expect(await disputesOf(order.id)).toMatchObject([{ provider_dispute_id: disputeId, status: 'won' }]);
  expect(await refundsOf(order.id)).toEqual([]);
  expect(affiliate.refundsAtDoor()).toHaveLength(0);
  expect(ga4Refunds()).toHaveLength(0);
  expect(ownerMails()).toEqual([`[${site.brand.name}] Payment disputed: ${FULL_SHOWN}`, `[${site.brand.name}] Dispute won: ${FULL_SHOWN}`]);
  expect(await unapplied()).toEqual([]);
});

it("disputes each successful charge of a 0259 card: a subscription's first payment and its renewal", async () => {
  const setup = await post('/api/create-setup-intent', { email: buyer, name: 'Sub Scriber', source: 'clear' }).expect(200);
  const clientSecret: string = setup.body.clientSecret;
  await post('/api/sandbox/confirm-setup', { clientSecret, card: DISPUTED, returnUrl: `${stack.url}/checkout?plan=standard` }).expect(200);
  await post('/api/confirm-subscription', {
    email: buyer,
    name: 'Sub Scriber',
    source: 'clear',
    setupIntentId: clientSecret.split('_secret_')[0],
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  }).expect(200);
  const { id: orderId } = await orderOf();
  await paymentsSettled(stack.db, orderId, 1);
  await post('/api/sandbox/clock', { advanceDays: 31 }).expect(200);
  await paymentsSettled(stack.db, orderId, 2);
  await waitFor(async () => (await disputesOf(orderId)).length === 2, 'both payments disputed');
  await outboxDrained(stack.db);

  const payments = await paymentsOf(stack.db, orderId);
  expect(await disputesOf(orderId)).toEqual(
    payments.map((p) => ({
      provider_dispute_id: expect.stringMatching(/^dp_/),
      status: 'disputed',
      amount_cents: toMinorUnits(OFFERS.default.amount, CURRENCY),
      provider_payment_id: p.provider_payment_id,
    })),
  );
  expect(await unapplied()).toEqual([]);
});

it('refuses evidence other than Stripe test words (400) and an unknown dispute (404), readably', async () => {
  for (const body of [{ evidence: 'a heartfelt letter' }, {}, { evidence: 7 }]) {
    const res = await evidence('dp_nosuchdispute000000000001', body).expect(400);
    expect(JSON.stringify(res.body)).toMatch(/evidence must be winning_evidence or losing_evidence/);
  }
  expect((await evidence('dp_nosuchdispute000000000001', { evidence: 'winning_evidence' }).expect(404)).body.message).toBe(
    'No dispute has this id.',
  );
  expect((await evidence('not-a-dispute', { evidence: 'winning_evidence' }).expect(404)).body.message).toBe('No dispute has this id.');
});

it('a 4242 payment is never disputed', async () => {
  const intent = await post('/api/create-payment-intent', {
    email: buyer,
    name: 'Cal M',
    source: 'clear',
    plan: FULL_PAYMENT.name,
    amount: FULL_PAYMENT.amount,
  }).expect(200);
  await post('/api/sandbox/confirm-payment', {
    clientSecret: intent.body.clientSecret,
    card: card('4242424242424242'),
    returnUrl: `${stack.url}/success`,
  }).expect(200);
  await paymentsSettled(stack.db, (await orderOf()).id, 1);
  expect(await stack.db.query(`SELECT id FROM sandbox_objects WHERE object = 'dispute'`)).toEqual([]);
  expect((await orderOf()).dispute_status).toBeNull();
});
