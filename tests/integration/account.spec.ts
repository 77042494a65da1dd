import request from 'supertest';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { SmtpSink } from '../fakes/smtp-sink';
import { clientAddresses, outboxDrained, resetData, resetRateLimits, Stack, startStack, waitFor } from './support/stack';

/**
 * The self-service account page's API with the sandbox, through the real worker: sign-in links
 * that reveal nothing about who bought, e-mailed once with a single-use 30-minute token; sessions
 * with CSRF; the buyer's memberships and payments; cancel at the period's end and resume (the
 * sandbox's `customer.subscription.updated` applied by the worker); a new card.
 */
const SECRET = 'whsec_accounttestsecret0000000000';
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const LINK = /https?:\/\/[^\s"<>]+\/account\?token=([A-Za-z0-9_-]+)/;
const LINKS_PER_EMAIL = 3;
const LINKS_PER_CLIENT = 6;
const smtp = new SmtpSink();
let stack: Stack;
let counter = 0;
let buyer = '';
let ip = '';

const http = () => request(stack.url);
const nextIp = clientAddresses(9);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', ip).send(body);

beforeAll(async () => {
  stack = await startStack({
    SMTP_URL: await smtp.start(),
    SANDBOX_WEBHOOK_SECRET: SECRET,
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    RATE_LIMIT_ACCOUNT_LINKS_PER_EMAIL: String(LINKS_PER_EMAIL),
    RATE_LIMIT_ACCOUNT_LINKS_PER_CLIENT: String(LINKS_PER_CLIENT),
    JOB_RETRY_HORIZON_S: '120',
  });
});
afterAll(async () => {
  await stack?.stop();
  await smtp.stop();
});
beforeEach(async () => {
  await resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects, account_link_tokens, account_sessions CASCADE');
  await stack.db.query('UPDATE sandbox_clock SET offset_seconds = 0');
  await resetRateLimits();
  smtp.reset();
  buyer = `account-buyer-${++counter}@example.com`;
  ip = nextIp();
});

const orderOf = async (email = buyer) =>
  (
    await stack.db.query(`SELECT id, status, paid_effects, cancel_at_period_end, current_period_end FROM orders WHERE email = $1`, [email])
  )[0];

/** A standard member (sandbox, 4242), its first payment settled. */
async function subscribe(email = buyer): Promise<string> {
  const setup = await post('/api/create-setup-intent', { email, name: 'Acc Member', source: 'clear' }).expect(200);
  const clientSecret: string = setup.body.clientSecret;
  await post('/api/sandbox/confirm-setup', { clientSecret, card, returnUrl: `${stack.url}/checkout?plan=standard` }).expect(200);
  await post('/api/confirm-subscription', {
    email,
    name: 'Acc Member',
    source: 'clear',
    setupIntentId: clientSecret.split('_secret_')[0],
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  }).expect(200);
  await waitFor(async () => Object.keys((await orderOf(email))?.paid_effects ?? {}).length === 4, 'first payment settled');
  await outboxDrained(stack.db);
  smtp.reset();
  return (await orderOf(email)).id;
}

/** The token of the latest sign-in e-mail to `email`. */
async function mailedToken(email = buyer): Promise<string> {
  const mail = await waitFor(
    () => smtp.messages.find((m) => m.envelope.to.includes(email) && LINK.test(m.text ?? '')),
    'the sign-in e-mail',
  );
  const [, token] = LINK.exec(mail?.text ?? '') ?? [];
  return token;
}

/** Signs in through an e-mailed link: the session cookie and the CSRF token. */
async function signIn(email = buyer): Promise<{ cookie: string; csrf: string }> {
  await post('/api/account/link', { email }).expect(202);
  const token = await mailedToken(email);
  const res = await post('/api/account/session', { token }).expect(200);
  const cookie = String(res.headers['set-cookie']).split(';')[0];
  return { cookie, csrf: res.body.csrfToken };
}

const authed = (session: { cookie: string; csrf: string }, path: string, body: object) =>
  post(path, body).set('Cookie', session.cookie).set('x-csrf-token', session.csrf);

it('answers 202 {} for an unknown and a known address alike, and e-mails one link to the known one only', async () => {
  await subscribe();
  const stranger = `nobody-${counter}@example.com`;
  const unknown = await post('/api/account/link', { email: stranger }).expect(202);
  const known = await post('/api/account/link', { email: buyer.toUpperCase() }).expect(202);
  expect(unknown.body).toEqual({});
  expect(known.body).toEqual(unknown.body);
  expect(Object.keys(known.headers).sort()).toEqual(Object.keys(unknown.headers).sort());

  const token = await mailedToken();
  await outboxDrained(stack.db);
  expect(smtp.messages).toHaveLength(1);
  expect(smtp.messages[0].envelope.to).toEqual([buyer]);
  expect(smtp.messages[0].html).toContain(`/account?token=${token}`);
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

  // Only the hash is stored, and neither the outbox nor the ledger ever held the token.
  const [row] = await stack.db.query(`SELECT token_hash, expires_at, created_at FROM account_link_tokens`);
  expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
  expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBeCloseTo(30 * 60_000, -4);
  const leaks = await stack.db.query(
    `SELECT 'outbox' FROM outbox WHERE payload::text LIKE $1 UNION ALL SELECT 'side_effects' FROM side_effects WHERE key LIKE $1 OR detail::text LIKE $1`,
    [`%${token}%`],
  );
  expect(leaks).toEqual([]);
  const effects = await stack.db.query(`SELECT key, status FROM side_effects WHERE key LIKE 'account-link-email:%'`);
  expect(effects).toEqual([{ key: expect.stringMatching(/^account-link-email:[0-9a-f-]{36}$/), status: 'done' }]);

  // The API did the same work for both: one owed job of one shape, the address sealed; only the
  // worker told them apart, and it issued no token for the stranger.
  const owed = await stack.db.query(
    `SELECT queue, job_name, array(SELECT jsonb_object_keys(payload) ORDER BY 1) AS keys, payload::text AS text FROM outbox
      WHERE job_name = 'account-link-email' ORDER BY created_at`,
  );
  expect(owed).toHaveLength(2);
  expect(owed.map(({ queue, job_name, keys }: { queue: string; job_name: string; keys: string[] }) => ({ queue, job_name, keys }))).toEqual([
    { queue: 'invitations', job_name: 'account-link-email', keys: ['requestId', 'sealedEmail'] },
    { queue: 'invitations', job_name: 'account-link-email', keys: ['requestId', 'sealedEmail'] },
  ]);
  for (const { text } of owed) expect(text).not.toMatch(/@example\.com/i);
  expect(await stack.db.query(`SELECT email_normalized FROM account_link_tokens`)).toEqual([{ email_normalized: buyer }]);
});

it('refuses bad input with a readable 400', async () => {
  const res = await post('/api/account/link', { email: 'not-an-address' }).expect(400);
  expect(JSON.stringify(res.body)).toContain('Please enter a valid email address');
  await post('/api/account/link', {}).expect(400);
  await post('/api/account/link', { email: buyer, extra: 1 }).expect(400);
  await post('/api/account/session', {}).expect(400);
});

it('a link signs in once: used again, or 30 minutes on, it is refused with a message', async () => {
  await subscribe();
  await post('/api/account/link', { email: buyer }).expect(202);
  const token = await mailedToken();
  const first = await post('/api/account/session', { token }).expect(200);
  const cookie = String(first.headers['set-cookie']);
  expect(cookie).toMatch(/^account_session=[A-Za-z0-9_-]{43}; Max-Age=7200; Path=\/api\/account; HttpOnly; SameSite=Lax$/);
  const again = await post('/api/account/session', { token }).expect(400);
  expect(again.body.message).toBe('This sign-in link has expired or was already used. Please ask for a new one below.');

  smtp.reset();
  await resetRateLimits();
  await post('/api/account/link', { email: buyer }).expect(202);
  const late = await mailedToken();
  await stack.db.query(`UPDATE account_link_tokens SET expires_at = expires_at - interval '30 minutes' WHERE used_at IS NULL`);
  await post('/api/account/session', { token: late }).expect(400);
  await post('/api/account/session', { token: 'x'.repeat(43) }).expect(400);
});

it('answers 401 without a session, and refuses a mutation without the CSRF token', async () => {
  const orderId = await subscribe();
  await http().get('/api/account').expect(401);
  await post('/api/account/cancel', { orderId }).expect(401);
  await post('/api/account/cancel', { orderId }).set('Cookie', 'account_session=forged').expect(401);

  const session = await signIn();
  await post('/api/account/cancel', { orderId }).set('Cookie', session.cookie).expect(403);
  await post('/api/account/cancel', { orderId }).set('Cookie', session.cookie).set('x-csrf-token', 'wrong').expect(403);
  expect((await orderOf()).cancel_at_period_end).toBe(false);
});

it("lists the buyer's memberships and payments, and nobody else's", async () => {
  const orderId = await subscribe();
  const other = `other-${counter}@example.com`;
  const otherOrder = await subscribe(other);
  const session = await signIn();
  const res = await http().get('/api/account').set('Cookie', session.cookie).expect(200);
  expect(res.body).toMatchObject({ provider: 'sandbox', csrfToken: session.csrf });
  expect(res.body.memberships).toEqual([
    expect.objectContaining({
      orderId,
      planName: OFFERS.default.name,
      displayText: OFFERS.default.displayText,
      state: 'active',
      statusText: 'Active',
      canCancel: true,
      canResume: false,
      canUpdateCard: true,
      payments: [
        {
          sequence: 1,
          amountCents: toMinorUnits(OFFERS.default.amount, CURRENCY),
          currency: CURRENCY.toLowerCase(),
          paidAt: expect.any(String),
        },
      ],
    }),
  ]);
  await authed(session, '/api/account/cancel', { orderId: otherOrder }).expect(404);
  expect((await orderOf(other)).cancel_at_period_end).toBe(false);
});

it('cancels at the period end and resumes, in the sandbox and on the order, with the events applied by the worker', async () => {
  const orderId = await subscribe();
  const session = await signIn();

  const canceled = await authed(session, '/api/account/cancel', { orderId }).expect(200);
  expect(canceled.body).toMatchObject({ state: 'canceling', cancelAtPeriodEnd: true, canCancel: false, canResume: true });
  expect(canceled.body.statusText).toMatch(/^Canceling on [A-Z][a-z]+ \d{1,2}, \d{4}$/);
  const periodEnd = new Date(canceled.body.currentPeriodEnd).getTime();
  expect(periodEnd).toBeGreaterThan(Date.now() + 27 * 86_400_000);
  expect(periodEnd).toBeLessThan(Date.now() + 32 * 86_400_000);
  const [sandbox] = await stack.db.query(`SELECT cancel_at_period_end FROM sandbox_objects WHERE object = 'subscription'`);
  expect(sandbox.cancel_at_period_end).toBe(true);

  const resumed = await authed(session, '/api/account/resume', { orderId }).expect(200);
  expect(resumed.body).toMatchObject({ state: 'active', statusText: 'Active', cancelAtPeriodEnd: false, canCancel: true });
  await waitFor(async () => {
    const events = await stack.db.query(
      `SELECT applied_at FROM payment_events WHERE type = 'customer.subscription.updated' ORDER BY received_at`,
    );
    return events.length === 2 && events.every((e: { applied_at: Date | null }) => e.applied_at !== null);
  }, 'both subscription updates applied');
  await outboxDrained(stack.db);
  const order = await orderOf();
  expect(order.cancel_at_period_end).toBe(false);
  expect(new Date(order.current_period_end).getTime()).toBe(periodEnd);
  expect(order.status).toBe('active');
});

it("the sandbox's subscription update event alone, applied by the worker, brings the terms onto the order", async () => {
  const orderId = await subscribe();
  const session = await signIn();
  await stack.stopWorker();
  try {
    await authed(session, '/api/account/cancel', { orderId }).expect(200);
    // As if the page had not recorded its own change: only the event can bring it back.
    await stack.db.query(`UPDATE orders SET cancel_at_period_end = false, current_period_end = NULL WHERE id = $1`, [orderId]);
  } finally {
    await stack.startWorker();
  }
  await waitFor(async () => (await orderOf()).cancel_at_period_end === true, 'the update event applied');
  expect((await orderOf()).current_period_end).not.toBeNull();
});

it('updates the card through a confirmed sandbox card setup, and has no billing portal', async () => {
  const orderId = await subscribe();
  const session = await signIn();
  await authed(session, '/api/account/card', { orderId, setupIntentId: 'seti_nothing' }).expect(409);
  const setup = await authed(session, '/api/account/card/setup', { orderId }).expect(200);
  expect(setup.body.setupIntentId).toMatch(/^seti_/);
  const newCard = { ...card, number: '5555555555554444' };
  await post('/api/sandbox/confirm-setup', {
    clientSecret: setup.body.clientSecret,
    card: newCard,
    returnUrl: `${stack.url}/account`,
  }).expect(200);
  await authed(session, '/api/account/card', { orderId, setupIntentId: setup.body.setupIntentId }).expect(200);
  const [subscription] = await stack.db.query(`SELECT card FROM sandbox_objects WHERE object = 'subscription'`);
  expect(subscription.card).toMatchObject({ last4: '4444' });

  const portal = await authed(session, '/api/account/billing-portal', { orderId }).expect(409);
  expect(portal.body.message).toContain('no billing portal');
});

it('limits link requests per address and per client, whether or not the address bought', async () => {
  for (let i = 0; i < LINKS_PER_EMAIL; i++) await post('/api/account/link', { email: buyer }).expect(202);
  const perEmail = await post('/api/account/link', { email: buyer }).set('X-Forwarded-For', nextIp()).expect(429);
  expect(perEmail.body.message).toContain('this email address');

  ip = nextIp();
  for (let i = 0; i < LINKS_PER_CLIENT; i++) await post('/api/account/link', { email: `spread-${i}-${counter}@example.com` }).expect(202);
  const perClient = await post('/api/account/link', { email: `spread-last-${counter}@example.com` }).expect(429);
  expect(perClient.body.message).toContain('this device');
});

it('e-mails at most 5 links an hour to one address; the 6th request is answered alike and sends nothing', async () => {
  await subscribe();
  // Five links issued 50 minutes ago (rather than waiting out the per-minute request limit).
  await stack.db.query(
    `INSERT INTO account_link_tokens (token_hash, email_normalized, expires_at, created_at)
     SELECT md5(random()::text) || md5(random()::text), $1, now() - interval '20 minutes', now() - interval '50 minutes'
       FROM generate_series(1, 5)`,
    [buyer],
  );
  const sixth = await post('/api/account/link', { email: buyer }).expect(202);
  expect(sixth.body).toEqual({});
  await outboxDrained(stack.db);
  expect(smtp.messages).toHaveLength(0);
  expect(await stack.db.query(`SELECT count(*)::int AS n FROM account_link_tokens`)).toEqual([{ n: 5 }]);

  // An hour on, the address may have a link again.
  await stack.db.query(`UPDATE account_link_tokens SET created_at = created_at - interval '11 minutes'`);
  await post('/api/account/link', { email: buyer }).expect(202);
  const token = await mailedToken();
  await post('/api/account/session', { token }).expect(200);
});

describe('writes from another site', () => {
  const form = (path: string, body: string) =>
    http().post(path).set('X-Forwarded-For', ip).set('Content-Type', 'application/x-www-form-urlencoded').send(body);

  /** A fresh, unused sign-in token of the buyer's. */
  async function linkToken(): Promise<string> {
    await post('/api/account/link', { email: buyer }).expect(202);
    return mailedToken();
  }

  it('refuses a form-encoded sign-in or admin login with a readable 415, using nothing up', async () => {
    await subscribe();
    const token = await linkToken();
    const session = await form('/api/account/session', `token=${token}`).expect(415);
    expect(session.body.message).toBe('Send the request body as JSON (Content-Type: application/json)');
    expect(session.headers['set-cookie']).toBeUndefined();
    await http().post('/api/admin/login').set('Content-Type', 'text/plain').send('{"email":"a@b.c","password":"x"}').expect(415);
    await form('/api/admin/login', 'email=a%40example.com&password=x').expect(415);
    await post('/api/account/session', { token }).expect(200);
  });

  it("refuses a JSON write whose Origin is another site's, or that a browser marks cross-site, with 403", async () => {
    await subscribe();
    const token = await linkToken();
    const evil = await post('/api/account/session', { token }).set('Origin', 'https://evil.example').expect(403);
    expect(evil.body.message).toBe('This request came from another website and was refused. Please use this site directly.');
    expect(evil.headers['set-cookie']).toBeUndefined();
    await post('/api/account/session', { token }).set('Sec-Fetch-Site', 'cross-site').expect(403);
    await post('/api/account/session', { token }).set('Origin', 'null').expect(403);
    await post('/api/admin/login', { email: 'a@example.com', password: 'x' }).set('Origin', 'https://evil.example').expect(403);
    await post('/api/account/logout', {}).set('Sec-Fetch-Site', 'same-site').expect(403);
    await post('/api/account/link', { email: buyer }).set('Origin', 'https://evil.example').expect(403);

    // From the site itself the same requests are processed.
    const own = new URL(stack.url).origin;
    await post('/api/admin/login', { email: 'a@example.com', password: 'x' }).set('Origin', own).expect(401);
    const res = await post('/api/account/session', { token }).set('Origin', own).set('Sec-Fetch-Site', 'same-origin').expect(200);
    expect(String(res.headers['set-cookie'])).toMatch(/^account_session=/);
  });

  it('leaves the one-click unsubscribe open to form posts from anywhere', async () => {
    const res = await form('/api/unsubscribe?token=nothing', 'List-Unsubscribe=One-Click').set('Origin', 'https://mail.example');
    expect(res.status).not.toBe(403);
    expect(res.status).not.toBe(415);
  });
});

const advance = (advanceDays: number) => post('/api/sandbox/clock', { advanceDays }).expect(200);
const paymentCount = async (orderId: string) =>
  (await stack.db.query(`SELECT count(*)::int AS n FROM payments WHERE order_id = $1`, [orderId]))[0].n as number;
const subjectsTo = (email = buyer) => smtp.messages.filter((m) => m.envelope.to.includes(email)).map((m) => m.subject ?? '');

/** 'Update card' with a sandbox test card, as the page does it. */
async function updateCard(session: { cookie: string; csrf: string }, orderId: string, number: string): Promise<void> {
  const setup = await authed(session, '/api/account/card/setup', { orderId }).expect(200);
  await post('/api/sandbox/confirm-setup', {
    clientSecret: setup.body.clientSecret,
    card: { ...card, number },
    returnUrl: `${stack.url}/account`,
  }).expect(200);
  await authed(session, '/api/account/card', { orderId, setupIntentId: setup.body.setupIntentId }).expect(200);
}

it('a member renews monthly until canceled on /account, is canceling meanwhile, then ends with the period and is not charged again', async () => {
  const orderId = await subscribe();
  await advance(31);
  await advance(31);
  await waitFor(async () => (await paymentCount(orderId)) === 3, 'two renewals');
  const session = await signIn();
  await authed(session, '/api/account/cancel', { orderId }).expect(200);
  await waitFor(async () => (await stack.db.query(`SELECT status FROM memberships`))[0]?.status === 'canceling', 'canceling');
  const ends = `Your ${site.brand.programName} membership ends on `;
  await waitFor(
    async () => subjectsTo().some((s) => s.startsWith(ends) && /^[A-Z][a-z]+ \d{1,2}, \d{4}$/.test(s.slice(ends.length))),
    'the e-mail',
  );

  // The period runs out: the subscription ends (customer.subscription.deleted), nothing more is billed.
  await advance(31);
  await waitFor(async () => (await orderOf()).status === 'canceled', 'ended with its period');
  await advance(62);
  await outboxDrained(stack.db);
  expect(await paymentCount(orderId)).toBe(3);
  expect((await stack.db.query(`SELECT status FROM memberships`))[0].status).toBe('ended');
  expect(subjectsTo().filter((s) => /membership has ended/.test(s))).toHaveLength(1);
  // The cancellation's confirmation once, though its update event was applied after the page's own write.
  expect(subjectsTo().filter((s) => /membership ends on/.test(s))).toHaveLength(1);
});

it("'Update card' to 4000 0000 0000 0341 makes the next renewal fail: the failed-payment e-mail, the retries, then the end", async () => {
  const orderId = await subscribe();
  const session = await signIn();
  await updateCard(session, orderId, '4000000000000341');
  await advance(31);
  await waitFor(
    async () =>
      subjectsTo().some((s) =>
        s.includes(`payment of ${formatMoney(toMinorUnits(OFFERS.default.amount, CURRENCY), CURRENCY, { decimals: 'always' })} failed`),
      ),
    'failed-payment e-mail',
  );
  expect((await orderOf()).status).toBe('past_due');
  for (const days of [3, 2, 2]) await advance(days);
  await waitFor(async () => (await orderOf()).status === 'canceled', 'canceled after the last retry');
  await outboxDrained(stack.db);
  expect(await paymentCount(orderId)).toBe(1);
  expect(subjectsTo().filter((s) => /failed/.test(s))).toHaveLength(1);
  expect(subjectsTo().filter((s) => /membership has ended/.test(s))).toHaveLength(1);
});
