import request from 'supertest';
import { MIN_CHARGE_CENTS } from '@core/coupons/coupon-pricing';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { FakeGa4MpServer } from '../fakes/ga4-mp-server';
import { FakeMetaCapiServer } from '../fakes/meta-capi-server';
import { SmtpSink } from '../fakes/smtp-sink';
import { adminSignIn, type AdminSession } from './support/admin';
import { paymentsOf, paymentsSettled } from './support/payments';
import { startSaleFakes } from './support/sale-fakes';
import { clientAddresses, outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

/** Plans and prices from the site folder, so a seller's price change or rename keeps this green. */
const FULL_PAYMENT = planOf('full-payment');
const FULL_CENTS = toMinorUnits(FULL_PAYMENT.amount, CURRENCY);
const STANDARD_CENTS = toMinorUnits(OFFERS.default.amount, CURRENCY);
/** The default plan at 50% off, rounded half up to the cent. */
const HALF_CENTS = Math.round(STANDARD_CENTS / 2);
/** An amount as the receipt states it ('$97.00'). */
const paid = (cents: number) => formatMoney(cents, CURRENCY, { decimals: 'always' });

/**
 * Coupons on the sandbox gateway through the real worker: the admin makes codes (audited,
 * CSRF-protected), checkout quotes and charges the discounted amount computed by the server, a
 * subscription's renewals go back to the full price after the coupon's months (the sandbox
 * clock), redemptions never pass the cap under concurrency, an unpaid checkout holds its
 * redemption only for COUPON_HOLD_MINUTES, quotes are limited per client, and the paid effects
 * (receipt, affiliate sale, Purchase events, the dashboard's revenue) carry the discounted amount.
 */
const SECRET = 'whsec_sandboxcouponsecret00000000';
const META_TOKEN = 'meta-coupon-token';
const ADMIN = { email: 'coupons.admin@example.com', password: 'coupons-admin-password-1' };
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const affiliate = new FakeAffiliateServer();
const meta = new FakeMetaCapiServer({ accessToken: META_TOKEN });
const ga4 = new FakeGa4MpServer();
const smtp = new SmtpSink();
let stack: Stack;
let session: AdminSession;

const http = () => request(stack.url);
const client = clientAddresses(31);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', client()).send(body);
const adminPost = (path: string, body: object) =>
  http().post(path).set('Cookie', session.cookie).set('x-csrf-token', session.csrfToken).send(body);
const quoteFrom = (clientIp: string, code: string, plan: string) =>
  http()
    .get(`/api/coupons/quote?code=${encodeURIComponent(code)}&plan=${plan}`)
    .set('X-Forwarded-For', clientIp);
const quote = async (code: string, plan: string) => (await quoteFrom(client(), code, plan).expect(200)).body;

async function createCoupon(terms: object): Promise<{ id: string; code: string; planIds: string[] }> {
  return (await adminPost('/api/admin/coupons', terms).expect(201)).body;
}

const orderOf = async (email: string) =>
  (await stack.db.query(`SELECT id, status, amount_cents, coupon_code, coupon_id, paid_effects FROM orders WHERE email = $1`, [email]))[0];
/** The redemptions counting against the code's cap, as the admin's list shows them. */
const redeemed = async (code: string): Promise<number> =>
  (await http().get('/api/admin/coupons').set('Cookie', session.cookie).expect(200)).body.find((c: { code: string }) => c.code === code)
    .redeemed;
/** Opens a checkout for the Full Payment plan with the code, as the checkout page does; it stays unpaid. */
const openCheckout = (email: string, coupon: string) =>
  post('/api/create-payment-intent', {
    email,
    name: 'Holder',
    source: 'clear',
    plan: FULL_PAYMENT.name,
    amount: FULL_PAYMENT.amount,
    coupon,
  });
/** Moves the code's checkouts back in time, as if they had been opened `minutes` earlier. */
const ageCheckouts = (couponId: string, minutes: number) =>
  stack.db.query(`UPDATE orders SET created_at = created_at - make_interval(mins => $2) WHERE coupon_id = $1`, [couponId, minutes]);

async function payOneTime(email: string, plan: string, amount: number, coupon?: string): Promise<string> {
  const intent = await post('/api/create-payment-intent', {
    email,
    name: 'Coupon Buyer',
    source: 'clear',
    referral: 'partner9',
    plan,
    amount,
    coupon,
  }).expect(200);
  await stack.db.query(`UPDATE orders SET livemode = true WHERE email = $1`, [email]);
  const clientSecret: string = intent.body.clientSecret;
  const confirmed = await post('/api/sandbox/confirm-payment', { clientSecret, card, returnUrl: `${stack.url}/success` }).expect(200);
  expect(confirmed.body.intent.status).toBe('succeeded');
  await waitFor(async () => Object.keys((await orderOf(email))?.paid_effects ?? {}).length === 4, 'paid effects recorded');
  return clientSecret.split('_secret_')[0];
}

async function subscribeStandard(email: string, coupon: string): Promise<void> {
  const setup = await post('/api/create-setup-intent', { email, name: 'Coupon Member', source: 'clear', coupon }).expect(200);
  const clientSecret: string = setup.body.clientSecret;
  await post('/api/sandbox/confirm-setup', { clientSecret, card, returnUrl: `${stack.url}/checkout?plan=standard` }).expect(200);
  await post('/api/confirm-subscription', {
    email,
    name: 'Coupon Member',
    source: 'clear',
    setupIntentId: clientSecret.split('_secret_')[0],
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  }).expect(200);
  await waitFor(async () => Object.keys((await orderOf(email))?.paid_effects ?? {}).length === 4, 'first payment settled');
  await outboxDrained(stack.db);
}

const receiptTo = (email: string) => smtp.messages.filter((m) => m.envelope.to.includes(email)).map((m) => m.text ?? '');

beforeAll(async () => {
  stack = await startStack({
    ...(await startSaleFakes({ affiliate, meta, ga4, smtp }, META_TOKEN, 'G-COUPONS1')),
    SANDBOX_WEBHOOK_SECRET: SECRET,
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    JOB_RETRY_HORIZON_S: '120',
  });
  session = await adminSignIn(stack.url, ADMIN);
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([affiliate.stop(), meta.stop(), ga4.stop(), smtp.stop()]);
});
beforeEach(async () => {
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects, coupons CASCADE');
  await stack.db.query('UPDATE sandbox_clock SET offset_seconds = 0');
  affiliate.reset();
  meta.reset();
  ga4.reset();
  smtp.reset();
});

describe('the admin API', () => {
  it('creates, lists and deactivates codes, audited; refuses without a session (401) or CSRF token (403)', async () => {
    const terms = {
      code: 'spring20',
      kind: 'percent',
      percentOff: 20,
      planIds: ['standard', 'full-payment'],
      durationMonths: 3,
      maxRedemptions: 5,
    };
    await http().post('/api/admin/coupons').send(terms).expect(401);
    await http().get('/api/admin/coupons').expect(401);
    await http().post('/api/admin/coupons').set('Cookie', session.cookie).send(terms).expect(403);
    const created = await createCoupon({ ...terms, expiresAt: '2099-01-01T00:00:00Z' });
    expect(created).toMatchObject({
      code: 'SPRING20',
      kind: 'percent',
      percentOff: 20,
      amountOffCents: null,
      durationMonths: 3,
      maxRedemptions: 5,
    });
    expect(created.planIds).toEqual(['standard', 'full-payment']);
    expect((await adminPost('/api/admin/coupons', terms).expect(409)).body.message).toBe('A coupon with the code SPRING20 exists already.');

    const list = (await http().get('/api/admin/coupons').set('Cookie', session.cookie).expect(200)).body;
    expect(list).toEqual([expect.objectContaining({ id: created.id, code: 'SPRING20', redeemed: 0, active: true })]);

    await http().post(`/api/admin/coupons/${created.id}/deactivate`).set('Cookie', session.cookie).send({}).expect(403);
    expect((await adminPost(`/api/admin/coupons/${created.id}/deactivate`, {}).expect(200)).body.active).toBe(false);
    expect(await quote('SPRING20', 'standard')).toMatchObject({
      valid: false,
      message: 'This coupon code is no longer active.',
      totalCents: STANDARD_CENTS,
    });

    const audit = await stack.db.query(`SELECT action, target FROM admin_audit_log WHERE target = 'coupon:SPRING20' ORDER BY id`);
    expect(audit).toEqual([
      { action: 'coupon.create', target: 'coupon:SPRING20' },
      { action: 'coupon.deactivate', target: 'coupon:SPRING20' },
    ]);
  });

  it('refuses invalid terms readably', async () => {
    const bad = async (terms: object) => JSON.stringify((await adminPost('/api/admin/coupons', terms).expect(400)).body);
    expect(await bad({ code: 'X', kind: 'percent', percentOff: 10, planIds: ['standard'] })).toContain('3 to 40 letters');
    expect(await bad({ code: 'BIG', kind: 'percent', percentOff: 101, planIds: ['standard'] })).toContain('from 1 to 100');
    expect(await bad({ code: 'NOPLAN', kind: 'fixed', amountOffCents: 500, planIds: [] })).toContain('Choose at least one plan.');
    expect(await bad({ code: 'INSTAL', kind: 'fixed', amountOffCents: 500, planIds: ['6-month'] })).toContain('Plans must be among');
  });
});

describe('quotes and checkout messages', () => {
  it('answers an unknown, expired, used-up or other-plan code with its message and the full price, never a 5xx', async () => {
    await createCoupon({ code: 'OLD', kind: 'percent', percentOff: 10, planIds: ['standard'], expiresAt: '2020-01-01T00:00:00Z' });
    await createCoupon({ code: 'ONCE', kind: 'fixed', amountOffCents: 1000, planIds: ['full-payment'], maxRedemptions: 1 });
    await createCoupon({ code: 'ELITE', kind: 'percent', percentOff: 10, planIds: ['premium'] });
    await createCoupon({ code: 'FREE', kind: 'percent', percentOff: 100, planIds: ['full-payment'] });

    expect(await quote('nope', 'standard')).toEqual({
      code: 'NOPE',
      plan: 'standard',
      valid: false,
      message: 'This coupon code is not valid.',
      fullCents: STANDARD_CENTS,
      discountCents: 0,
      totalCents: STANDARD_CENTS,
      durationMonths: null,
    });
    expect(await quote('old', 'standard')).toMatchObject({
      valid: false,
      message: 'This coupon code has expired.',
      totalCents: STANDARD_CENTS,
    });
    expect(await quote('ELITE', 'standard')).toMatchObject({
      valid: false,
      message: `This coupon code does not apply to the ${OFFERS.default.name} plan.`,
      totalCents: STANDARD_CENTS,
    });
    expect(await quote('FREE', 'full-payment')).toMatchObject({ valid: false, totalCents: FULL_CENTS });
    expect((await quote('FREE', 'full-payment')).message).toContain(`${paid(MIN_CHARGE_CENTS)} minimum charge`);
    expect(await quote('ONCE', 'full-payment')).toMatchObject({ valid: true, discountCents: 1000, totalCents: FULL_CENTS - 1000 });

    await payOneTime('once-buyer@example.com', FULL_PAYMENT.name, FULL_PAYMENT.amount, 'ONCE');
    expect(await quote('ONCE', 'full-payment')).toMatchObject({
      valid: false,
      message: 'This coupon code has been used up.',
      totalCents: FULL_CENTS,
    });

    const refused = async (coupon: string, message: string) => {
      const res = await post('/api/create-payment-intent', {
        email: 'refused@example.com',
        name: 'R',
        source: 'clear',
        plan: FULL_PAYMENT.name,
        amount: FULL_PAYMENT.amount,
        coupon,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    };
    await refused('ONCE', 'This coupon code has been used up.');
    await refused('nope', 'This coupon code is not valid.');
    await refused('ELITE', `does not apply to the ${FULL_PAYMENT.name} plan`);
    const setup = await post('/api/create-setup-intent', { email: 'refused@example.com', name: 'R', source: 'clear', coupon: 'OLD' });
    expect(setup.status).toBe(400);
    expect(setup.body.message).toBe('This coupon code has expired.');
    expect(await stack.db.query(`SELECT id FROM orders WHERE email = 'refused@example.com'`)).toEqual([]);
    await http().get('/api/coupons/quote?code=X&plan=unknown').expect(400);
  });
});

describe('charging the discounted amount', () => {
  it('a percent and a fixed one-time discount: the order, receipt, affiliate sale, Purchase events and revenue use it', async () => {
    await createCoupon({ code: 'TENOFF', kind: 'percent', percentOff: 15, planIds: ['full-payment'] });
    await createCoupon({ code: 'MINUS100', kind: 'fixed', amountOffCents: 10000, planIds: ['full-payment', 'blackcard-vip'] });
    // 15% off, rounded half up to the cent (at the default site's $997.00: $149.55 off, $847.45); 100.00 off.
    const percentOff = Math.round((FULL_CENTS * 15) / 100);
    const percentTotal = FULL_CENTS - percentOff;
    const fixedTotal = FULL_CENTS - 10000;
    expect(await quote('tenoff', 'full-payment')).toMatchObject({ valid: true, discountCents: percentOff, totalCents: percentTotal });

    const percentId = await payOneTime('percent-buyer@example.com', FULL_PAYMENT.name, FULL_PAYMENT.amount, 'tenoff');
    const fixedId = await payOneTime('fixed-buyer@example.com', FULL_PAYMENT.name, FULL_PAYMENT.amount, 'MINUS100');
    expect(await orderOf('percent-buyer@example.com')).toMatchObject({
      amount_cents: percentTotal,
      coupon_code: 'TENOFF',
      status: 'succeeded',
    });
    expect(await orderOf('fixed-buyer@example.com')).toMatchObject({
      amount_cents: fixedTotal,
      coupon_code: 'MINUS100',
      status: 'succeeded',
    });
    expect((await paymentsOf(stack.db, (await orderOf('percent-buyer@example.com')).id))[0].amount_cents).toBe(percentTotal);

    expect(receiptTo('percent-buyer@example.com')[0]).toContain(`Amount paid: ${paid(percentTotal)}`);
    expect(receiptTo('fixed-buyer@example.com')[0]).toContain(`Amount paid: ${paid(fixedTotal)}`);
    const sales = affiliate.sales().map((s) => [s.params.event_id, s.params.amount]);
    expect(sales).toEqual(
      expect.arrayContaining([
        [percentId, String(percentTotal)],
        [fixedId, String(fixedTotal)],
      ]),
    );
    expect(
      meta
        .events()
        .map((e) => (e.event as { custom_data: { value: number } }).custom_data.value)
        .sort(),
    ).toEqual([percentTotal / 100, fixedTotal / 100].sort());
    expect(
      ga4
        .events()
        .map((e) => (e.event as { params: { value: number } }).params.value)
        .sort(),
    ).toEqual([percentTotal / 100, fixedTotal / 100].sort());

    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const report = (await http().get(`/api/admin/funnel?from=${from}&to=${to}`).set('Cookie', session.cookie).expect(200)).body;
    expect(report.totals.revenueCents).toBe(percentTotal + fixedTotal);
    expect(await redeemed('TENOFF')).toBe(1);
  });

  it("a standard subscription's first two months are discounted, and its renewals go back to the full price", async () => {
    await createCoupon({ code: 'HALF2', kind: 'percent', percentOff: 50, planIds: ['standard'], durationMonths: 2 });
    expect(await quote('HALF2', 'standard')).toMatchObject({ valid: true, totalCents: HALF_CENTS, durationMonths: 2 });
    const email = 'half-member@example.com';
    await subscribeStandard(email, 'HALF2');
    const order = await orderOf(email);
    expect(order).toMatchObject({ amount_cents: HALF_CENTS, coupon_code: 'HALF2', status: 'active' });
    for (let month = 1; month <= 3; month++) await post('/api/sandbox/clock', { advanceDays: 31 }).expect(200);
    await paymentsSettled(stack.db, order.id, 4);
    const rows = await paymentsOf(stack.db, order.id);
    // Payments are numbered as their events are applied, which may differ from the billing order.
    expect(rows[0].amount_cents).toBe(HALF_CENTS);
    expect(rows.map((p) => p.amount_cents).sort()).toEqual([HALF_CENTS, HALF_CENTS, STANDARD_CENTS, STANDARD_CENTS].sort());
    // The renewals in the sandbox's time: the second month still discounted, then the full price.
    const renewals = await stack.db.query(
      `SELECT amount_cents FROM sandbox_objects WHERE object = 'invoice' AND order_id = $1 ORDER BY created_at`,
      [order.id],
    );
    expect(renewals.map((r: { amount_cents: number }) => r.amount_cents)).toEqual([HALF_CENTS, STANDARD_CENTS, STANDARD_CENTS]);
    expect(receiptTo(email).filter((t) => t.includes(`Amount paid: ${paid(HALF_CENTS)}`))).toHaveLength(2);
    expect(receiptTo(email).filter((t) => t.includes(`Amount paid: ${paid(STANDARD_CENTS)}`))).toHaveLength(2);
  });
});

describe('redemptions under concurrency', () => {
  it('50 concurrent checkouts on a code with 10 redemptions left redeem exactly 10; the others get the message and no order', async () => {
    const coupon = await createCoupon({ code: 'RUSH', kind: 'fixed', amountOffCents: 5000, planIds: ['full-payment'], maxRedemptions: 12 });
    for (const early of ['early-1@example.com', 'early-2@example.com']) await openCheckout(early, 'RUSH').expect(200);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post('/api/create-payment-intent', {
          email: `rush-${i}@example.com`,
          name: 'Rush',
          source: 'clear',
          plan: FULL_PAYMENT.name,
          amount: FULL_PAYMENT.amount,
          coupon: 'rush',
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 400)).toHaveLength(40);
    expect(new Set(answers.filter((a) => a.status === 400).map((a) => a.body.message))).toEqual(
      new Set(['This coupon code has been used up.']),
    );
    expect(await redeemed('RUSH')).toBe(12);
    const orders = await stack.db.query(`SELECT amount_cents FROM orders WHERE coupon_id = $1 AND email LIKE 'rush-%'`, [coupon.id]);
    expect(orders).toHaveLength(10);
    expect(orders.every((o: { amount_cents: number }) => o.amount_cents === FULL_CENTS - 5000)).toBe(true);
  });
});

describe('holds: an unpaid checkout holds its redemption for COUPON_HOLD_MINUTES (60)', () => {
  it('a code capped at 3: three unpaid checkouts use it up and the fourth is refused, until their hold lapses', async () => {
    const coupon = await createCoupon({ code: 'HOLD3', kind: 'percent', percentOff: 10, planIds: ['full-payment'], maxRedemptions: 3 });
    for (let i = 1; i <= 3; i++) await openCheckout(`holder-${i}@example.com`, 'HOLD3').expect(200);
    expect(await redeemed('HOLD3')).toBe(3);
    expect(await quote('HOLD3', 'full-payment')).toMatchObject({ valid: false, message: 'This coupon code has been used up.' });
    expect((await openCheckout('fourth@example.com', 'HOLD3').expect(400)).body.message).toBe('This coupon code has been used up.');

    // 59 minutes on, the checkouts still hold their redemptions.
    await ageCheckouts(coupon.id, 59);
    expect(await quote('HOLD3', 'full-payment')).toMatchObject({ valid: false, message: 'This coupon code has been used up.' });
    await openCheckout('fourth@example.com', 'HOLD3').expect(400);

    // Past 60 minutes unpaid, they hold nothing: the code is usable again, up to its cap.
    await ageCheckouts(coupon.id, 2);
    expect(await redeemed('HOLD3')).toBe(0);
    expect(await quote('HOLD3', 'full-payment')).toMatchObject({ valid: true, totalCents: FULL_CENTS - Math.round(FULL_CENTS / 10) });
    for (let i = 4; i <= 6; i++) await openCheckout(`holder-${i}@example.com`, 'HOLD3').expect(200);
    await openCheckout('seventh@example.com', 'HOLD3').expect(400);
    expect(await redeemed('HOLD3')).toBe(3);
  });

  it('a paid redemption is never released', async () => {
    const coupon = await createCoupon({
      code: 'PAIDONCE',
      kind: 'fixed',
      amountOffCents: 1000,
      planIds: ['full-payment'],
      maxRedemptions: 1,
    });
    await payOneTime('paid-holder@example.com', FULL_PAYMENT.name, FULL_PAYMENT.amount, 'PAIDONCE');
    await ageCheckouts(coupon.id, 60 * 24 * 30);
    expect(await redeemed('PAIDONCE')).toBe(1);
    expect(await quote('PAIDONCE', 'full-payment')).toMatchObject({ valid: false, message: 'This coupon code has been used up.' });
    await openCheckout('latecomer@example.com', 'PAIDONCE').expect(400);
  });

  it('a checkout paid after its hold lapsed is charged the discounted price and counts again, past the cap', async () => {
    const coupon = await createCoupon({
      code: 'SLOWPAY',
      kind: 'fixed',
      amountOffCents: 1000,
      planIds: ['full-payment'],
      maxRedemptions: 1,
    });
    const slow = await openCheckout('slow-payer@example.com', 'SLOWPAY').expect(200);
    await ageCheckouts(coupon.id, 61);
    await openCheckout('next-buyer@example.com', 'SLOWPAY').expect(200);
    expect(await redeemed('SLOWPAY')).toBe(1);

    const confirmed = await post('/api/sandbox/confirm-payment', {
      clientSecret: slow.body.clientSecret,
      card,
      returnUrl: `${stack.url}/success`,
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.intent.status).toBe('succeeded');
    await waitFor(async () => (await orderOf('slow-payer@example.com')).status === 'succeeded', 'the late payment applied');
    expect((await orderOf('slow-payer@example.com')).amount_cents).toBe(FULL_CENTS - 1000);
    expect(await redeemed('SLOWPAY')).toBe(2);
    await openCheckout('third-buyer@example.com', 'SLOWPAY').expect(400);
  });
});

describe('quotes per client', () => {
  it('a flood of quotes from one client gets 429 with a readable message; another client is unaffected', async () => {
    await createCoupon({ code: 'GUESSME', kind: 'percent', percentOff: 10, planIds: ['standard'] });
    const flooder = '10.99.0.1';
    // RATE_LIMIT_COUPON_CHECKS (20) per window, valid codes or not.
    for (let i = 0; i < 20; i++) await quoteFrom(flooder, `GUESS${i}`, 'standard').expect(200);
    const refused = await quoteFrom(flooder, 'GUESSME', 'standard').expect(429);
    expect(refused.body.message).toBe('Too many coupon codes tried from this device. Please wait a minute and try again.');
    expect((await quoteFrom('10.99.0.2', 'GUESSME', 'standard').expect(200)).body).toMatchObject({ valid: true });
  });
});
