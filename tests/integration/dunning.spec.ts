import request from 'supertest';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { PaymentReconciler } from '../../worker/src/reconciler/payment-reconciler';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { FakeMembersArea } from '../fakes/members-area-server';
import { SmtpSink } from '../fakes/smtp-sink';
import { paymentsSettled } from './support/payments';
import { clientAddresses, outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

/**
 * Dunning ends access, in the sandbox's time: a member whose renewal keeps failing keeps access
 * while past due for PAST_DUE_GRACE_DAYS (14) after the failed charge, then loses it (the
 * reconciler's pass, no provider event), with the membership-ended e-mail and the access_ended
 * webhook once each; a later payment gives it back. A subscription the provider marks unpaid
 * after its last retry (Stripe's setting, SANDBOX_AFTER_LAST_RETRY) ends access at once. Time is
 * the sandbox clock's: nothing waits for the wall clock but the worker's jobs.
 */
const SECRET = `whsec_${Buffer.from('members-area-dunning-secret-0123').toString('base64')}`;
const DAY_MS = 86_400_000;
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const area = new FakeMembersArea(SECRET);
const smtp = new SmtpSink();
let stack: Stack;
let counter = 0;
const nextClient = clientAddresses(33);

const post = (path: string, body: object) => request(stack.url).post(path).set('X-Forwarded-For', nextClient()).send(body);
const advance = async (advanceDays: number) => new Date((await post('/api/sandbox/clock', { advanceDays }).expect(200)).body.now as string);
const reconcile = () => stack.worker!.get(PaymentReconciler).reconcile();
const orderOf = async (email: string) =>
  (await stack.db.query(`SELECT id, status, subscription_state, past_due_since, grace_ended_at FROM orders WHERE email = $1`, [email]))[0];
const membership = async (email: string) =>
  (await stack.db.query(`SELECT status, access_changes FROM memberships WHERE email_normalized = $1`, [email]))[0];
const webhooks = (email: string) => area.accepted().filter((d) => d.body.data.email === email);
const subjects = (email: string) => smtp.messages.filter((m) => m.envelope.to.includes(email)).map((m) => m.subject ?? '');

/** The member's saved card becomes another test card, as 'Update card' makes it (0341: attaches, then every charge fails). */
async function switchCard(email: string, last4: '0341' | '4242'): Promise<void> {
  const outcome = last4 === '0341' ? 'attaches_then_fails' : 'succeeds';
  await stack.db.query(`UPDATE sandbox_objects SET card = $2 WHERE object = 'subscription' AND order_id = $1`, [
    (await orderOf(email)).id,
    JSON.stringify({ last4, outcome }),
  ]);
}

async function subscribe(email: string): Promise<void> {
  const setup = await post('/api/create-setup-intent', { email, name: 'Dun Ning', source: 'clear' }).expect(200);
  const clientSecret: string = setup.body.clientSecret;
  await post('/api/sandbox/confirm-setup', { clientSecret, card, returnUrl: `${stack.url}/checkout?plan=standard` }).expect(200);
  await post('/api/confirm-subscription', {
    email,
    name: 'Dun Ning',
    source: 'clear',
    setupIntentId: clientSecret.split('_secret_')[0],
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  }).expect(200);
  await waitFor(async () => webhooks(email).length === 1, 'access granted told');
}

/** Subscribes, then fails the first renewal: past due, the buyer asked once to update the card. */
async function failedRenewal(email: string): Promise<Date> {
  await subscribe(email);
  await switchCard(email, '0341');
  const now = await advance(31);
  await waitFor(async () => (await orderOf(email)).status === 'past_due', 'past due');
  await waitFor(
    async () =>
      subjects(email).some((s) =>
        s.includes(`payment of ${formatMoney(toMinorUnits(OFFERS.default.amount, CURRENCY), CURRENCY, { decimals: 'always' })} failed`),
      ),
    'failed-payment e-mail',
  );
  await outboxDrained(stack.db);
  return now;
}

function startStackWith(env: Record<string, string>): void {
  beforeAll(async () => {
    stack = await startStack({
      MEMBERSHIP_WEBHOOK_URL: await area.start(),
      MEMBERSHIP_WEBHOOK_SECRET: SECRET,
      // The sandbox's orders are test orders: this members area hears of them too.
      MEMBERSHIP_WEBHOOK_TEST_ORDERS: 'true',
      SMTP_URL: await smtp.start(),
      SANDBOX_WEBHOOK_SECRET: 'whsec_dunningsecret00000000000000',
      STRIPE_SECRET_KEY: '',
      TRUST_PROXY: 'true',
      RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
      RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
      JOB_RETRY_HORIZON_S: '120',
      ...env,
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    await area.stop();
    await smtp.stop();
  });
  beforeEach(async () => {
    await resetData(stack.db);
    await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects, memberships CASCADE');
    await stack.db.query('UPDATE sandbox_clock SET offset_seconds = 0');
    area.reset();
    smtp.reset();
  });
}

describe('past due for longer than the grace', () => {
  // The sandbox retries on days 3 and 5, and a last time on day 20: past the 14 days of grace.
  startStackWith({ PAYMENT_RETRY_DAYS: '3,5,20', PAST_DUE_GRACE_DAYS: '14' });

  it('keeps access 14 days after the failed charge, then ends it once (e-mail, webhook); a later payment restores it', async () => {
    const email = `grace-${++counter}@example.com`;
    let now = await failedRenewal(email);
    const { past_due_since } = await orderOf(email);
    // The grace counts from the failed charge, in the sandbox's time.
    expect(past_due_since.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(past_due_since.getTime()).toBeGreaterThan(now.getTime() - 2 * DAY_MS);
    expect(await membership(email)).toMatchObject({ status: 'past_due', access_changes: 1 });

    // Two failed retries (days 3 and 5), then the last whole day of grace: access is kept.
    await advance(3);
    now = await advance(2);
    const deadline = past_due_since.getTime() + 14 * DAY_MS;
    now = await advance(Math.floor((deadline - now.getTime()) / DAY_MS));
    expect(now.getTime()).toBeLessThan(deadline);
    await outboxDrained(stack.db);
    expect((await reconcile()).graceEnded).toBe(0);
    expect(await membership(email)).toMatchObject({ status: 'past_due', access_changes: 1 });
    expect(webhooks(email)).toHaveLength(1);

    // The grace runs out: no provider event, the reconciler's pass ends access, once however often it runs.
    now = await advance(1);
    expect(now.getTime()).toBeGreaterThanOrEqual(deadline);
    const passes = await Promise.all([reconcile(), reconcile()]);
    expect(passes.map((p) => p.graceEnded).sort()).toEqual([0, 1]);
    expect((await reconcile()).graceEnded).toBe(0);
    await waitFor(async () => webhooks(email).length === 2, 'access ended told');
    await waitFor(async () => subjects(email).some((s) => /membership has ended/.test(s)), 'ended e-mail');
    await outboxDrained(stack.db);
    expect(await orderOf(email)).toMatchObject({ status: 'past_due', grace_ended_at: expect.any(Date) });
    expect(await membership(email)).toMatchObject({ status: 'ended', access_changes: 2 });
    expect(webhooks(email)[1].body).toMatchObject({ type: 'membership.access_ended', data: { status: 'ended' } });

    // The member updates the card; the retry of day 20 pays the renewal and gives access back.
    await switchCard(email, '4242');
    await advance(6);
    await paymentsSettled(stack.db, (await orderOf(email)).id, 2);
    await waitFor(async () => webhooks(email).length === 3, 'access granted again told');
    await outboxDrained(stack.db);
    expect(await orderOf(email)).toMatchObject({ status: 'active', past_due_since: null, grace_ended_at: null });
    expect(await membership(email)).toMatchObject({ status: 'active', access_changes: 3 });
    expect(webhooks(email).map((d) => d.body.type)).toEqual([
      'membership.access_granted',
      'membership.access_ended',
      'membership.access_granted',
    ]);
    expect(subjects(email).filter((s) => /failed/.test(s))).toHaveLength(1);
    expect(subjects(email).filter((s) => /has ended/.test(s))).toHaveLength(1);
    const mails = smtp.deliveriesAtDoor();
    expect(exactlyOnceProblems(mails, [...new Set(mails.map((m) => m.identity))])).toEqual([]);
    expect((await reconcile()).graceEnded).toBe(0);
  });

  it('tells a member whose access ends a second time (ended, restored by a payment, ended again) each time, once', async () => {
    const email = `twice-${++counter}@example.com`;
    await failedRenewal(email);
    await advance(15);
    expect((await reconcile()).graceEnded).toBe(1);
    await waitFor(async () => subjects(email).filter((s) => /has ended/.test(s)).length === 1, 'first ended e-mail');
    // The retry of day 20 on an updated card restores access.
    await switchCard(email, '4242');
    await advance(6);
    await waitFor(async () => (await membership(email))?.status === 'active', 'access restored');
    expect(await membership(email)).toMatchObject({ access_changes: 3 });

    // The next renewal fails too, and its grace runs out: access ends again.
    await switchCard(email, '0341');
    await advance(11);
    await waitFor(async () => (await orderOf(email)).status === 'past_due', 'past due again');
    await outboxDrained(stack.db);
    await advance(15);
    expect((await reconcile()).graceEnded).toBe(1);
    await waitFor(async () => webhooks(email).length === 4, 'second end told');
    await waitFor(async () => subjects(email).filter((s) => /has ended/.test(s)).length === 2, 'second ended e-mail');
    await outboxDrained(stack.db);
    expect(await membership(email)).toMatchObject({ status: 'ended', access_changes: 4 });
    expect(subjects(email).filter((s) => /has ended/.test(s))).toHaveLength(2);
    const mails = smtp.deliveriesAtDoor();
    expect(exactlyOnceProblems(mails, [...new Set(mails.map((m) => m.identity))])).toEqual([]);
  });

  it('gives the whole grace to a member whose renewal is paid by a retry within it', async () => {
    const email = `recovered-${++counter}@example.com`;
    await failedRenewal(email);
    await switchCard(email, '4242');
    await advance(3);
    await waitFor(async () => (await orderOf(email)).status === 'active', 'active again');
    expect(await orderOf(email)).toMatchObject({ past_due_since: null, grace_ended_at: null });
    await advance(20);
    expect((await reconcile()).graceEnded).toBe(0);
    await outboxDrained(stack.db);
    expect(await membership(email)).toMatchObject({ status: 'active', access_changes: 1 });
    expect(subjects(email).filter((s) => /has ended/.test(s))).toEqual([]);
  });

  it('ends the access of an instalment plan whose later charge keeps failing after the grace, and a payment restores it', async () => {
    const email = `instalments-${++counter}@example.com`;
    const intent = await post('/api/create-payment-intent', {
      email,
      name: 'Dun Ning',
      source: 'clear',
      plan: planOf('6-month').name,
      amount: planOf('6-month').amount,
    });
    await post('/api/sandbox/confirm-payment', { clientSecret: intent.body.clientSecret, card, returnUrl: `${stack.url}/success` }).expect(
      200,
    );
    await waitFor(async () => Boolean((await orderOf(email))?.subscription_state), 'instalments scheduled');
    await waitFor(async () => webhooks(email).length === 1, 'access granted told');
    await switchCard(email, '0341');
    await advance(31);
    await waitFor(async () => (await orderOf(email)).subscription_state === 'past_due', 'instalment past due');
    await outboxDrained(stack.db);
    expect(await orderOf(email)).toMatchObject({ status: 'succeeded', past_due_since: expect.any(Date) });
    expect(await membership(email)).toMatchObject({ status: 'past_due', access_changes: 1 });

    await advance(15);
    expect((await reconcile()).graceEnded).toBe(1);
    await waitFor(async () => webhooks(email).length === 2, 'access ended told');
    await waitFor(async () => subjects(email).some((s) => /membership has ended/.test(s)), 'ended e-mail');
    expect(await membership(email)).toMatchObject({ status: 'ended', access_changes: 2 });

    // The retry of day 20 on the updated card pays the instalment: access again.
    await switchCard(email, '4242');
    await advance(6);
    await paymentsSettled(stack.db, (await orderOf(email)).id, 2);
    await waitFor(async () => webhooks(email).length === 3, 'access granted again told');
    await outboxDrained(stack.db);
    expect(await orderOf(email)).toMatchObject({ subscription_state: 'active', past_due_since: null, grace_ended_at: null });
    expect(await membership(email)).toMatchObject({ status: 'active', access_changes: 3 });
    expect(subjects(email).filter((s) => /has ended/.test(s))).toHaveLength(1);
  });
});

describe('retries over, the subscription marked unpaid', () => {
  // Stripe's 'mark the subscription as unpaid' after its last retry (day 7), well within the grace.
  startStackWith({ PAYMENT_RETRY_DAYS: '3,5,7', SANDBOX_AFTER_LAST_RETRY: 'unpaid', PAST_DUE_GRACE_DAYS: '14' });

  it('ends access when the last retry fails, told once each, and the grace ends nothing more', async () => {
    const email = `unpaid-${++counter}@example.com`;
    await failedRenewal(email);
    for (const days of [3, 2]) await advance(days);
    await outboxDrained(stack.db);
    expect(await membership(email)).toMatchObject({ status: 'past_due', access_changes: 1 });

    await advance(2);
    await waitFor(async () => (await orderOf(email)).status === 'unpaid', 'unpaid');
    await waitFor(async () => webhooks(email).length === 2, 'access ended told');
    await waitFor(async () => subjects(email).some((s) => /membership has ended/.test(s)), 'ended e-mail');
    expect(await orderOf(email)).toMatchObject({ subscription_state: 'unpaid', past_due_since: null });
    expect(await membership(email)).toMatchObject({ status: 'ended', access_changes: 2 });

    // Past the grace and months on: nothing more is charged, ended or told.
    await advance(30);
    await advance(31);
    expect((await reconcile()).graceEnded).toBe(0);
    await outboxDrained(stack.db);
    expect(await orderOf(email)).toMatchObject({ status: 'unpaid' });
    expect(webhooks(email)).toHaveLength(2);
    expect(subjects(email).filter((s) => /has ended/.test(s))).toHaveLength(1);
    expect(await stack.db.query(`SELECT p.id FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.email = $1`, [email])).toHaveLength(
      1,
    );
  });

  it('refuses an unpaid member a second membership with a readable 409: their card is updated on /account instead', async () => {
    const email = `unpaid-again-${++counter}@example.com`;
    await failedRenewal(email);
    for (const days of [3, 2, 2]) await advance(days);
    await waitFor(async () => (await orderOf(email)).status === 'unpaid', 'unpaid');
    await outboxDrained(stack.db);
    const refused = await post('/api/create-setup-intent', { email, name: 'Dun Ning', source: 'clear' }).expect(409);
    expect(refused.body.message).toBe(
      `This email address already has a ${OFFERS.default.name} membership whose payment failed, so nothing was charged. To restore it, please update your card on your account page (/account).`,
    );
    expect(await stack.db.query(`SELECT 1 FROM orders WHERE email = $1`, [email])).toHaveLength(1);
  });
});
