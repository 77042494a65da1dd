import request from 'supertest';
import { toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS } from '@contracts/plans';
import { AppConfig } from '@core/config/app-config';
import { OrderLifecycle } from '@core/orders/order-lifecycle';
import { DataRetentionHandler } from '../../worker/src/handlers/data-retention.handler';
import { PauseReminders } from '../../worker/src/reconciler/pause-reminders';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { SmtpSink } from '../fakes/smtp-sink';
import { adminSignIn, type AdminSession } from './support/admin';
import { paymentsOf, paymentsSettled } from './support/payments';
import { clientAddresses, outboxDrained, resetData, resetRateLimits, Stack, startStack, waitFor } from './support/stack';

/**
 * The cancellation flow on the sandbox, through the real worker and the sandbox clock: the
 * survey's answer and its outcome stored; a pause charges nothing for its months, its reminder is
 * e-mailed once three days before it ends (by the sandbox's clock), then renewals resume; the save
 * offer's coupon comes off the next renewal only, and is offered once per member; erasure and the
 * retention pass clear the member's own words. Prices come from the site folder's catalogue.
 */
const SECRET = 'whsec_cancellationsecret000000000';
const STANDARD_CENTS = toMinorUnits(OFFERS.default.amount, CURRENCY);
const DAY_MS = 86_400_000;
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const LINK = /https?:\/\/[^\s"<>]+\/account\?token=([A-Za-z0-9_-]+)/;
const ADMIN = { email: 'cancellation-admin@example.com', password: 'cancellation-admin-password-1' };
const smtp = new SmtpSink();
let stack: Stack;
let admin: AdminSession;
let counter = 0;
let buyer = '';
const nextClient = clientAddresses(57);

const http = () => request(stack.url);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', nextClient()).send(body);
const advance = async (advanceDays: number) => new Date((await post('/api/sandbox/clock', { advanceDays }).expect(200)).body.now as string);
const orderOf = async () => (await stack.db.query(`SELECT id, paid_effects, paused_until FROM orders WHERE email = $1`, [buyer]))[0];
const amounts = async () => (await paymentsOf(stack.db, (await orderOf()).id)).map((p) => p.amount_cents);
const feedbackRows = async () =>
  stack.db.query(
    `SELECT f.id, f.reason, f.detail, f.outcome, f.pause_months, f.resumes_at, f.coupon_id, f.reminder_owed_at
       FROM cancellation_feedback f JOIN orders o ON o.id = f.order_id WHERE o.email = $1 ORDER BY f.created_at`,
    [buyer],
  );
/** The buyer's membership as the members area is told it: its status and how many access changes it has had. */
const membershipOf = async () =>
  (
    await stack.db.query(`SELECT m.status, m.access_changes FROM memberships m JOIN orders o ON o.id = m.order_id WHERE o.email = $1`, [buyer])
  )[0];
const mailsTo = () => smtp.messages.filter((m) => m.envelope.to.includes(buyer));

beforeAll(async () => {
  stack = await startStack({
    SMTP_URL: await smtp.start(),
    SANDBOX_WEBHOOK_SECRET: SECRET,
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    JOB_RETRY_HORIZON_S: '120',
  });
  await stack.db.query('TRUNCATE admin_accounts, admin_sessions, admin_audit_log CASCADE');
  admin = await adminSignIn(stack.url, ADMIN);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await smtp.stop();
});
beforeEach(async () => {
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects, account_link_tokens, account_sessions, coupons CASCADE');
  await stack.db.query('UPDATE sandbox_clock SET offset_seconds = 0');
  await resetRateLimits();
  smtp.reset();
  buyer = `cancel-member-${++counter}@example.com`;
});

/** A member of the default plan (sandbox, 4242), first payment settled, signed in to /account. */
async function member(): Promise<{ orderId: string; session: { cookie: string; csrf: string } }> {
  const setup = await post('/api/create-setup-intent', { email: buyer, name: 'Can Cel', source: 'clear' }).expect(200);
  const clientSecret: string = setup.body.clientSecret;
  await post('/api/sandbox/confirm-setup', { clientSecret, card, returnUrl: `${stack.url}/checkout?plan=${OFFERS.default.id}` }).expect(200);
  await post('/api/confirm-subscription', {
    email: buyer,
    name: 'Can Cel',
    source: 'clear',
    setupIntentId: clientSecret.split('_secret_')[0],
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  }).expect(200);
  await waitFor(async () => Object.keys((await orderOf())?.paid_effects ?? {}).length === 4, 'first payment settled');
  await outboxDrained(stack.db);
  smtp.reset();
  await post('/api/account/link', { email: buyer }).expect(202);
  const mail = await waitFor(() => mailsTo().find((m) => LINK.test(m.text ?? '')), 'the sign-in e-mail');
  const [, token] = LINK.exec(mail?.text ?? '') ?? [];
  const res = await post('/api/account/session', { token }).expect(200);
  await outboxDrained(stack.db);
  smtp.reset();
  return { orderId: (await orderOf()).id, session: { cookie: String(res.headers['set-cookie']).split(';')[0], csrf: res.body.csrfToken } };
}

const authed = (session: { cookie: string; csrf: string }, path: string, body: object) =>
  post(path, body).set('Cookie', session.cookie).set('x-csrf-token', session.csrf);
const account = async (session: { cookie: string }) =>
  (await http().get('/api/account').set('Cookie', session.cookie).expect(200)).body.memberships[0];
const adminGet = (path: string) => http().get(path).set('cookie', admin.cookie);

async function saveOfferCoupon(percentOff: number): Promise<string> {
  const res = await http()
    .post('/api/admin/coupons')
    .set('cookie', admin.cookie)
    .set('x-csrf-token', admin.csrfToken)
    .send({ code: `STAY${percentOff}`, kind: 'percent', percentOff, planIds: [OFFERS.default.id], saveOffer: true })
    .expect(201);
  expect(res.body).toMatchObject({ saveOffer: true });
  return res.body.id;
}

it('cancels at once without an answer, and keeps the reason and the free text of "other" when given', async () => {
  const { orderId, session } = await member();
  const canceled = await authed(session, '/api/account/cancel', { orderId }).expect(200);
  expect(canceled.body).toMatchObject({ state: 'canceling', offers: { pause: false, discount: null } });
  await authed(session, '/api/account/resume', { orderId }).expect(200);
  await authed(session, '/api/account/cancel', { orderId, reason: 'other', detail: '  Moving abroad  ' }).expect(200);
  await authed(session, '/api/account/cancel', { orderId, reason: 'sometimes' }).expect(400);

  expect(await feedbackRows()).toMatchObject([
    { reason: null, detail: null, outcome: 'canceled' },
    { reason: 'other', detail: 'Moving abroad', outcome: 'canceled' },
  ]);
  const listed = await adminGet('/api/admin/cancellations').expect(200);
  expect(listed.body.counts).toEqual(
    expect.arrayContaining([
      { reason: null, outcome: 'canceled', count: 1 },
      { reason: 'other', outcome: 'canceled', count: 1 },
    ]),
  );
  expect(listed.body.recent[0]).toMatchObject({ planId: OFFERS.default.id, reason: 'other', detail: 'Moving abroad', outcome: 'canceled' });

  // Erasing the member clears their own words; the reason and outcome stay for the counts.
  await http()
    .post('/api/admin/people/erase')
    .set('cookie', admin.cookie)
    .set('x-csrf-token', admin.csrfToken)
    .send({ email: buyer })
    .expect(200);
  expect(await stack.db.query(`SELECT reason, detail FROM cancellation_feedback WHERE order_id = $1 ORDER BY created_at`, [orderId])).toEqual([
    { reason: null, detail: null },
    { reason: 'other', detail: null },
  ]);
});

it("clears the member's own words after RETENTION_DAYS, keeping the reason and outcome", async () => {
  const { orderId, session } = await member();
  await authed(session, '/api/account/cancel', { orderId, reason: 'other', detail: 'Too busy this year' }).expect(200);
  const days = stack.worker!.get(AppConfig).RETENTION_DAYS;
  const retention = stack.worker!.get(DataRetentionHandler);
  expect(await retention.purge()).toContain('cancellationDetails=0');
  await stack.db.query(`UPDATE cancellation_feedback SET created_at = now() - make_interval(days => $1::int + 1)`, [days]);
  expect(await retention.purge()).toContain('cancellationDetails=1');
  expect(await feedbackRows()).toMatchObject([{ reason: 'other', detail: null, outcome: 'canceled' }]);
});

it('pauses for two months: no charge for two periods, one reminder three days before, then the renewal at full price', async () => {
  const { orderId, session } = await member();
  const paused = await authed(session, '/api/account/pause', { orderId, reason: 'not_using', months: 2 }).expect(200);
  expect(paused.body).toMatchObject({ state: 'paused', offers: { pause: false, discount: null } });
  const [pause] = await feedbackRows();
  expect(pause).toMatchObject({ reason: 'not_using', outcome: 'paused', pause_months: 2, reminder_owed_at: null });
  const resumesAt = new Date(pause.resumes_at);
  expect(paused.body.pausedUntil).toBe(resumesAt.toISOString());
  // Pausing twice is refused: the pause is on.
  await authed(session, '/api/account/pause', { orderId, reason: 'not_using', months: 1 }).expect(409);
  // The same pause recorded twice (a double click past the check) is one answer: one reminder.
  const survey = { reason: 'not_using' as const, detail: null };
  const again = { outcome: 'paused' as const, months: 2, pausedFrom: new Date(), resumesAt };
  await expect(stack.worker!.get(OrderLifecycle).cancellationAnswered(orderId, survey, again)).resolves.toBe(pause.id);
  expect(await feedbackRows()).toHaveLength(1);
  const reminders = stack.worker!.get(PauseReminders);
  // Access lasts until the paid period ends.
  const granted = await membershipOf();
  expect(granted).toMatchObject({ status: 'active' });
  expect(await reminders.run()).toBe(0);
  expect(await membershipOf()).toEqual(granted);

  // Two periods end while paused: nothing is charged, and access is paused (one change, however often the pass runs).
  // The pause's own subscription event is applied first: the pass skips an order another
  // transaction holds (that event's, in the worker), leaving it to its next run, which this test
  // would not see.
  await advance(31);
  await outboxDrained(stack.db);
  expect(await reminders.run()).toBe(0);
  expect(await membershipOf()).toEqual({ status: 'paused', access_changes: granted.access_changes + 1 });
  let now = await advance(31);
  await outboxDrained(stack.db);
  expect(await amounts()).toEqual([STANDARD_CENTS]);
  expect(await reminders.run()).toBe(0);
  expect(await membershipOf()).toEqual({ status: 'paused', access_changes: granted.access_changes + 1 });

  // Three days before the pause ends, by the sandbox's clock: the reminder, once however often the pass runs.
  now = await advance(Math.ceil((resumesAt.getTime() - 3 * DAY_MS - now.getTime()) / DAY_MS));
  expect(now.getTime()).toBeLessThan(resumesAt.getTime());
  expect(await reminders.run()).toBe(1);
  expect(await reminders.run()).toBe(0);
  const reminder = await waitFor(() => mailsTo().find((m) => (m.subject ?? '').includes('resumes on')), 'the reminder e-mail');
  expect(reminder?.text).toContain(OFFERS.default.displayText);
  await outboxDrained(stack.db);
  const mails = smtp.deliveriesAtDoor();
  expect(exactlyOnceProblems(mails, [...new Set(mails.map((m) => m.identity))])).toEqual([]);
  expect(mailsTo()).toHaveLength(1);
  expect(await amounts()).toEqual([STANDARD_CENTS]);

  // The pause is over: the next renewal is charged, at the full price, and the account is active again.
  await advance(4);
  await paymentsSettled(stack.db, orderId, 2);
  expect(await amounts()).toEqual([STANDARD_CENTS, STANDARD_CENTS]);
  expect(await account(session)).toMatchObject({ state: 'active', pausedUntil: null });
  // The renewal gave access back; the pass changes nothing more.
  expect(await membershipOf()).toEqual({ status: 'active', access_changes: granted.access_changes + 2 });
  expect(await reminders.run()).toBe(0);
  expect(await membershipOf()).toEqual({ status: 'active', access_changes: granted.access_changes + 2 });
});

it('takes the save offer off the next renewal only, and offers it once per member', async () => {
  const couponId = await saveOfferCoupon(20);
  const { orderId, session } = await member();
  expect((await account(session)).offers).toEqual({
    pause: true,
    discount: { percentOff: 20, amountOffCents: null, currency: CURRENCY.toLowerCase() },
  });
  const kept = await authed(session, '/api/account/save-offer', { orderId, reason: 'too_expensive' }).expect(200);
  expect(kept.body).toMatchObject({ state: 'active', offers: { pause: true, discount: null } });
  expect(await feedbackRows()).toMatchObject([{ reason: 'too_expensive', outcome: 'discounted', coupon_id: couponId }]);
  // Once per member: asked again, it is refused.
  const again = await authed(session, '/api/account/save-offer', { orderId, reason: 'too_expensive' }).expect(409);
  expect(again.body.message).toMatch(/not available/);
  // Recorded a second time past that check (two tabs at once), it is not stored again.
  const twice = { outcome: 'discounted' as const, couponId };
  await expect(stack.worker!.get(OrderLifecycle).cancellationAnswered(orderId, { reason: 'too_expensive', detail: null }, twice)).resolves.toBeNull();
  expect(await feedbackRows()).toHaveLength(1);

  await advance(31);
  await paymentsSettled(stack.db, orderId, 2);
  await advance(31);
  await paymentsSettled(stack.db, orderId, 3);
  expect(await amounts()).toEqual([STANDARD_CENTS, STANDARD_CENTS - Math.round(STANDARD_CENTS * 0.2), STANDARD_CENTS]);
});
