import { join } from 'node:path';
import request from 'supertest';
import { minorUnitDigits, minorUnitsPerMajor, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { clientAddresses, Stack, startStack, waitFor } from './support/stack';
import { adminCreate } from './support/admin';

/**
 * The funnel dashboard, lists and exports, a person's data and the audit log, against the real API
 * and worker: orders are paid through the sandbox and its webhook, invitations through the gate.
 */
/** Plans and prices from the site folder, so a seller's price change or rename keeps this green. */
const FULL_PAYMENT = planOf('full-payment');
const BLACKCARD = planOf('blackcard-vip');
const STANDARD_CENTS = toMinorUnits(OFFERS.default.amount, CURRENCY);
/** The site's add-on (order bump), if it has one, was offered with each of `orders` and taken by none. */
const bumpOffered = (orders: number) => ({ bumpOffered: OFFERS.bump ? orders : 0, bumpTaken: 0 });
const FULL_CENTS = toMinorUnits(FULL_PAYMENT.amount, CURRENCY);
const BLACKCARD_CENTS = toMinorUnits(BLACKCARD.amount, CURRENCY);
/** The orders export's amount column: major units with every decimal of the currency ('997.00'). */
const asCsvAmount = (cents: number) => (cents / minorUnitsPerMajor(CURRENCY)).toFixed(minorUnitDigits(CURRENCY));
const ADMIN = { email: 'dashboard.admin@example.com', password: 'a long enough dashboard password' };
const UNAUTHENTICATED = 'Please sign in as an admin to continue.';
const card = (number: string) => ({ number, expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' });
const VISITOR = { a: 'visitor-aaaaaaaaaaaaaaaa', b: 'visitor-bbbbbbbbbbbbbbbb', c: 'visitor-cccccccccccccccc' };
const BUYER = 'Upgrade.Buyer@Example.com';
const STANDARD_ONLY = 'standard.only@example.com';
const LEAD_ONLY = 'lead.only@example.com';
const INVITEE = { email: 'Quentin.Erasable@Example.com', name: 'Quentin Zyxwvut', phone: '+1 555 0199', invitedBy: 'Sam Inviter' };
const NOT_VERIFIED = 'never.opened@example.com';

let stack: Stack;
let cookie = '';
let csrfToken = '';
let from = '';

const http = () => request(stack.url);
const client = clientAddresses(77);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', client()).send(body);
const admin = (path: string) => http().get(path).set('cookie', cookie);
const beacon = (body: object) => http().post('/api/beacon').send(body);

async function payOneTime(email: string, name: string, plan: string, amount: number, extra: object = {}): Promise<void> {
  const res = await post('/api/create-payment-intent', { email, name, source: 'clear', plan, amount, ...extra }).expect(200);
  await post('/api/sandbox/confirm-payment', {
    clientSecret: res.body.clientSecret,
    card: card('4242424242424242'),
    returnUrl: `${stack.url}/success`,
  }).expect(200);
}

async function payStandard(email: string, name: string, extra: object = {}): Promise<void> {
  const setup = await post('/api/create-setup-intent', { email, name, source: 'clear', ...extra }).expect(200);
  const clientSecret: string = setup.body.clientSecret;
  await post('/api/sandbox/confirm-setup', {
    clientSecret,
    card: card('4242424242424242'),
    returnUrl: `${stack.url}/checkout?plan=standard`,
  }).expect(200);
  await post('/api/confirm-subscription', {
    email,
    name,
    source: 'clear',
    setupIntentId: clientSecret.split('_secret_')[0],
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
    ...extra,
  }).expect(200);
}

let to = '';
const funnel = async () => (await admin(`/api/admin/funnel?from=${from}&to=${to}`).expect(200)).body;

beforeAll(async () => {
  stack = await startStack({
    // The beacon counts views of the pages the API's build lists.
    STATIC_DIR: join(__dirname, '..', '..', 'frontend', 'dist'),
    SANDBOX_WEBHOOK_SECRET: 'whsec_dashboardsecret000000000000',
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    VERIFY_REFRESH_MS: '600000',
    INVITATION_DELIVERY: 'instant',
    RATE_LIMIT_TOKEN_CHECKS: '10000',
  });
  await stack.db.query(
    `TRUNCATE leads, lead_submissions, outbox, side_effects, orders, payment_events, sandbox_objects, invitations, funnel_events,
              admin_accounts, admin_sessions, admin_audit_log CASCADE`,
  );
  expect(await adminCreate(ADMIN.email, ADMIN.password)).toMatchObject({ code: 0 });
  const login = await http().post('/api/admin/login').send(ADMIN).expect(200);
  cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? [])[0].split(';')[0];
  csrfToken = login.body.csrfToken;
  from = new Date(Date.now() - 1000).toISOString();
  to = new Date(Date.now() + 10 * 60_000).toISOString();
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

describe('without an admin session', () => {
  it.each([
    ['GET', '/api/admin/funnel'],
    ['GET', '/api/admin/audit'],
    ['GET', '/api/admin/leads'],
    ['GET', '/api/admin/orders'],
    ['GET', '/api/admin/leads/export.csv'],
    ['GET', '/api/admin/orders/export.csv'],
    ['GET', '/api/admin/people?email=a%40example.com'],
    ['GET', '/api/admin/people/export?email=a%40example.com'],
    ['POST', '/api/admin/people/erase'],
  ])('%s %s answers 401', async (method, path) => {
    const res = method === 'GET' ? await http().get(path) : await http().post(path).send({ email: 'a@example.com' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, message: UNAUTHENTICATED });
  });

  it('erase with a session but without the CSRF token answers 403 and erases nothing', async () => {
    const res = await http().post('/api/admin/people/erase').set('cookie', cookie).send({ email: 'a@example.com' });
    expect(res.status).toBe(403);
    const wrong = await http()
      .post('/api/admin/people/erase')
      .set('cookie', cookie)
      .set('x-csrf-token', 'not-the-token')
      .send({ email: 'a@example.com' });
    expect(wrong.status).toBe(403);
  });
});

describe('POST /api/beacon', () => {
  it('records a JSON page view and a text/plain (sendBeacon) checkout start with 204, the path without its query string', async () => {
    await beacon({
      type: 'page_view',
      visitorId: VISITOR.a,
      path: '/checkout?email=jane%40example.com&name=Jane#top',
      referral: 'ref-alpha',
    }).expect(204);
    const text = JSON.stringify({
      type: 'checkout_start',
      visitorId: VISITOR.a,
      path: '/checkout',
      plan: FULL_PAYMENT.name,
      referral: 'ref-alpha',
    });
    await http().post('/api/beacon').set('Content-Type', 'text/plain;charset=UTF-8').send(text).expect(204);
    const rows = await stack.db.query(`SELECT type, visitor_id, path, plan_id, referral FROM funnel_events ORDER BY id`);
    expect(rows).toEqual([
      { type: 'page_view', visitor_id: VISITOR.a, path: '/checkout', plan_id: null, referral: 'ref-alpha' },
      { type: 'checkout_start', visitor_id: VISITOR.a, path: '/checkout', plan_id: 'full-payment', referral: 'ref-alpha' },
    ]);
  });

  it.each([
    ['malformed JSON as text', 'text/plain', '{"type":"page_view",', 400],
    ['an array', 'application/json', '[1,2]', 400],
    [
      'an unknown field',
      'application/json',
      JSON.stringify({ type: 'page_view', visitorId: VISITOR.a, path: '/', email: 'x@example.com' }),
      400,
    ],
    ['an unknown type', 'application/json', JSON.stringify({ type: 'purchase', visitorId: VISITOR.a, path: '/' }), 400],
    ['a short visitor id', 'application/json', JSON.stringify({ type: 'page_view', visitorId: 'abc', path: '/' }), 400],
    ['an admin path', 'application/json', JSON.stringify({ type: 'page_view', visitorId: VISITOR.a, path: '/admin' }), 400],
    [
      'an unknown path',
      'application/json',
      JSON.stringify({ type: 'page_view', visitorId: VISITOR.a, path: '/people/jane@example.com' }),
      400,
    ],
    [
      'an e-mail as referral',
      'application/json',
      JSON.stringify({ type: 'page_view', visitorId: VISITOR.a, path: '/', referral: 'jane@example.com' }),
      400,
    ],
    [
      'an unknown plan',
      'application/json',
      JSON.stringify({ type: 'checkout_start', visitorId: VISITOR.a, path: '/checkout', plan: 'Gold' }),
      400,
    ],
    [
      'an oversize JSON body',
      'application/json',
      JSON.stringify({ type: 'page_view', visitorId: VISITOR.a, path: '/', referral: 'r'.repeat(2000) }),
      413,
    ],
    [
      'an oversize text body',
      'text/plain',
      JSON.stringify({ type: 'page_view', visitorId: VISITOR.a, path: '/', referral: 'r'.repeat(2000) }),
      413,
    ],
    ['a form post', 'application/x-www-form-urlencoded', 'type=page_view', 400],
  ])('refuses %s with a 4xx and stores nothing', async (_what, type, body, status) => {
    const before = await stack.db.query(`SELECT count(*)::int AS n FROM funnel_events`);
    const res = await http().post('/api/beacon').set('Content-Type', type).send(body);
    expect(res.status).toBe(status);
    expect(await stack.db.query(`SELECT count(*)::int AS n FROM funnel_events`)).toEqual(before);
  });

  it('no stored path carries a query string or fragment', async () => {
    expect(await stack.db.query(`SELECT path FROM funnel_events WHERE path ~ '[?#@]'`)).toEqual([]);
  });
});

describe('the funnel for a scripted journey', () => {
  beforeAll(async () => {
    await beacon({ type: 'page_view', visitorId: VISITOR.a, path: '/', referral: 'ref-alpha' }).expect(204);
    await beacon({ type: 'page_view', visitorId: VISITOR.b, path: '/' }).expect(204);
    await beacon({ type: 'page_view', visitorId: VISITOR.c, path: '/upsell', referral: 'ref-alpha' }).expect(204);
    await beacon({ type: 'checkout_start', visitorId: VISITOR.c, path: '/checkout', plan: 'standard', referral: 'ref-alpha' }).expect(204);
    // Outside the range: an old visit and an old lead.
    await stack.db.query(
      `INSERT INTO funnel_events (type, visitor_id, path, occurred_at) VALUES ('page_view', 'visitor-oldoldoldoldold', '/', now() - interval '2 days')`,
    );
    await stack.db.query(
      `INSERT INTO leads (email, email_normalized, first_submitted_at) VALUES ('old@example.com', 'old@example.com', now() - interval '2 days')`,
    );

    await post('/api/leads', { email: BUYER, name: 'Una Upgrader', referral: 'ref-alpha' }).expect(201);
    await post('/api/leads', { email: LEAD_ONLY, name: 'Lee Only' }).expect(201);
    await post('/api/leads', { email: INVITEE.email, name: INVITEE.name, phone: INVITEE.phone }).expect(201);
    await waitFor(async () => (await stack.db.query(`SELECT id FROM leads`)).length === 4, 'three leads written');

    const invited = await post('/api/invitation-gate', {
      name: INVITEE.name,
      email: INVITEE.email,
      phone: INVITEE.phone,
      invitedBy: INVITEE.invitedBy,
    }).expect(201);
    await post('/api/invitation-gate', { name: 'Never Opened', email: NOT_VERIFIED }).expect(201);
    const token: string = invited.body.accessToken;
    await http().get(`/api/validate-token/${token}`).expect(200);

    await payStandard(BUYER, 'Una Upgrader', { referral: 'ref-alpha' });
    await payOneTime(BUYER, 'Una Upgrader', FULL_PAYMENT.name, FULL_PAYMENT.amount, { referral: 'ref-alpha' });
    await payStandard(STANDARD_ONLY, 'Stan Dard');
    await payOneTime(INVITEE.email, INVITEE.name, BLACKCARD.name, BLACKCARD.amount, { source: 'blackcard', blackcard_token: token });
    // Started, never paid: not a purchase.
    await post('/api/create-payment-intent', {
      email: LEAD_ONLY,
      name: 'Lee Only',
      source: 'clear',
      plan: planOf('6-month').name,
      amount: planOf('6-month').amount,
    }).expect(200);
    await waitFor(
      async () => (await stack.db.query(`SELECT id FROM orders WHERE paid_at IS NOT NULL`)).length === 4,
      'four orders paid',
      30_000,
    );
    // The sandbox's orders are test orders, counted apart (see the last describe). These four
    // stand for live ones, as checkout records them with a Stripe live key.
    await stack.db.query(`UPDATE orders SET livemode = true`);
  }, 60_000);

  it('counts visitors, leads, checkouts, purchases, revenue, upgrades and invitations exactly', async () => {
    const report = await funnel();
    expect(report.totals).toEqual({
      visitors: 3,
      leads: 3,
      checkouts: 2,
      purchases: 4,
      revenueCents: STANDARD_CENTS * 2 + FULL_CENTS + BLACKCARD_CENTS,
    });
    expect(report.testOrders).toEqual({ purchases: 0, revenueCents: 0 });
    expect(report.byPlan).toEqual(
      expect.arrayContaining([
        { planId: 'full-payment', checkouts: 1, purchases: 1, revenueCents: FULL_CENTS, ...bumpOffered(1) },
        { planId: 'blackcard-vip', checkouts: 0, purchases: 1, revenueCents: BLACKCARD_CENTS, ...bumpOffered(1) },
        { planId: 'standard', checkouts: 1, purchases: 2, revenueCents: STANDARD_CENTS * 2, ...bumpOffered(2) },
      ]),
    );
    expect(report.byPlan).toHaveLength(3);
    const byReferral = [
      { referral: 'ref-alpha', visitors: 2, leads: 1, checkouts: 2, purchases: 2, revenueCents: STANDARD_CENTS + FULL_CENTS },
      { referral: null, visitors: 1, leads: 2, checkouts: 0, purchases: 2, revenueCents: STANDARD_CENTS + BLACKCARD_CENTS },
    ];
    // Listed by revenue, then visitors: which comes first depends on the site's prices.
    expect(report.byReferral).toEqual(byReferral.sort((a, b) => b.revenueCents - a.revenueCents || b.visitors - a.visitors));
    expect(report.upgrade).toEqual({ standardBuyers: 2, upgraded: 1, rate: 0.5, byPlan: [{ planId: 'full-payment', buyers: 1 }] });
    expect(report.invitations).toEqual({ invited: 2, verified: 1, purchased: 1 });
  });

  it('a range that ends before the journey counts none of it; a reversed or malformed range is a 400', async () => {
    const before = (await admin(`/api/admin/funnel?from=${new Date(Date.now() - 3 * 86_400_000).toISOString()}&to=${from}`).expect(200))
      .body;
    expect(before.totals).toEqual({ visitors: 1, leads: 1, checkouts: 0, purchases: 0, revenueCents: 0 });
    expect((await admin('/api/admin/funnel?from=2025-02-01&to=2025-01-01').expect(400)).body.message).toBe('from must be before to');
    expect((await admin('/api/admin/funnel?from=yesterday').expect(400)).body.message).toContain('from must be a date');
  });

  it('lists leads and orders newest first, searched by e-mail and paged', async () => {
    const leads = (await admin('/api/admin/leads?q=UPGRADE.buyer').expect(200)).body;
    expect(leads).toMatchObject({ total: 1, page: 1, items: [{ email: BUYER, name: 'Una Upgrader', referral: 'ref-alpha' }] });
    const orders = (await admin(`/api/admin/orders?q=${encodeURIComponent('upgrade.buyer@')}`).expect(200)).body;
    expect(orders.total).toBe(2);
    expect(orders.items.map((o: { planId: string }) => o.planId)).toEqual(['full-payment', 'standard']);
    const second = (await admin('/api/admin/orders?page=2&pageSize=2').expect(200)).body;
    expect(second).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(second.items).toHaveLength(2);
    // A page past the end has no row to carry the count: still the number of all matches.
    expect((await admin('/api/admin/orders?page=9&pageSize=2').expect(200)).body).toMatchObject({ total: 5, page: 9, items: [] });
    expect((await admin('/api/admin/leads?q=UPGRADE.buyer&page=3').expect(200)).body).toMatchObject({ total: 1, items: [] });
    expect((await admin('/api/admin/leads?q=%25').expect(200)).body.total).toBe(0);
    await admin('/api/admin/orders?pageSize=1000').expect(400);
  });

  it('exports CSV with formula-looking cells defused, and records the export in the audit log', async () => {
    await post('/api/leads', { email: 'formula@example.com', name: '=HYPERLINK("http://evil.example","x")', phone: '+1 555 0100' }).expect(
      201,
    );
    await waitFor(
      async () => (await stack.db.query(`SELECT id FROM leads WHERE email_normalized = 'formula@example.com'`)).length === 1,
      'formula lead',
    );
    const res = await admin('/api/admin/leads/export.csv?q=formula').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,email,name,phone,referral,submission_count,first_submitted_at,last_submitted_at');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`formula@example.com,"'=HYPERLINK(""http://evil.example"",""x"")",'+1 555 0100,,1,`);

    const orders = await admin('/api/admin/orders/export.csv').expect(200);
    expect(orders.text.split('\r\n')[0]).toBe('id,email,name,plan,amount,currency,status,source,referral,created_at,paid_at');
    expect(orders.text).toContain(`,blackcard-vip,${asCsvAmount(BLACKCARD_CENTS)},${CURRENCY},succeeded,blackcard,,`);

    const audit = (await admin('/api/admin/audit').expect(200)).body;
    expect(audit.items.slice(0, 2)).toMatchObject([
      { action: 'orders.export-csv', admin: ADMIN.email, target: 'orders:5' },
      { action: 'leads.export-csv', admin: ADMIN.email, target: 'leads:1 filtered' },
    ]);
  });
});

describe("a person's data", () => {
  beforeAll(async () => {
    // What a live Stripe account would add: a webhook event naming the buyer, and a ledger entry about their order.
    const [{ id: orderId }] = await stack.db.query(`SELECT id FROM orders WHERE email_normalized = $1`, [INVITEE.email.toLowerCase()]);
    const event = {
      id: 'evt_dashboard_1',
      type: 'charge.succeeded',
      data: { object: { metadata: { order_id: orderId }, billing_details: { name: INVITEE.name, email: INVITEE.email.toUpperCase() } } },
    };
    await stack.db.query(`INSERT INTO payment_events (id, type, payload) VALUES ('evt_dashboard_1', 'charge.succeeded', $1)`, [
      JSON.stringify(event),
    ]);
    await stack.db.query(`INSERT INTO side_effects (key, kind, status, detail) VALUES ($1, 'receipt-email', 'done', $2)`, [
      `receipt-email:${orderId}`,
      JSON.stringify({ note: `sent to ${INVITEE.email} for ${INVITEE.name}` }),
    ]);
    // They unsubscribed from marketing e-mail.
    await stack.db.query(`INSERT INTO email_suppressions (email_normalized) VALUES ($1) ON CONFLICT DO NOTHING`, [
      INVITEE.email.toLowerCase(),
    ]);
  });

  it('finds everything held about an e-mail in any case, token rows without hashes, and exports it as a JSON download', async () => {
    const found = (await admin(`/api/admin/people?email=${encodeURIComponent(' QUENTIN.erasable@example.com ')}`).expect(200)).body;
    expect(found.lead).toMatchObject({ email: INVITEE.email, name: INVITEE.name, phone: INVITEE.phone });
    expect(found.leadSubmissions).toHaveLength(1);
    expect(found.invitation).toMatchObject({ name: INVITEE.name, invited_by: INVITEE.invitedBy });
    expect(found.invitationSubmissions).toHaveLength(1);
    expect(found.invitationTokens).toEqual([{ issue: 1, expiresAt: expect.any(String), createdAt: expect.any(String) }]);
    expect(found.orders).toMatchObject([
      { plan_id: 'blackcard-vip', amount_cents: BLACKCARD_CENTS, status: 'succeeded', source: 'blackcard' },
    ]);
    expect(found.sideEffects.map((e: { key: string }) => e.key)).toEqual(expect.arrayContaining([`receipt-email:${found.orders[0].id}`]));
    expect(found.emailSuppression).toEqual({ unsubscribedAt: expect.any(String) });
    expect(JSON.stringify(found)).not.toMatch(/token_hash|[0-9a-f]{64}/);

    const file = await admin(`/api/admin/people/export?email=${encodeURIComponent(INVITEE.email)}`).expect(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="person-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(file.body).toEqual(found);
    const [latest] = (await admin('/api/admin/audit?pageSize=1').expect(200)).body.items;
    expect(latest).toMatchObject({
      action: 'person.export',
      target: `lead:${found.lead.id} invitation:${found.invitation.id} order:${found.orders[0].id}`,
    });
  });

  it('erase replaces every trace of the e-mail and name in one go, keeps the order anonymised, revokes the token and is audited without the address', async () => {
    const before = await funnel();
    const [{ id: orderId }] = await stack.db.query(`SELECT id FROM orders WHERE email_normalized = $1`, [INVITEE.email.toLowerCase()]);
    const res = await http()
      .post('/api/admin/people/erase')
      .set('cookie', cookie)
      .set('x-csrf-token', csrfToken)
      .send({ email: INVITEE.email })
      .expect(200);
    expect(res.body).toEqual({
      erased: {
        leads: 1,
        leadSubmissions: 1,
        invitations: 1,
        invitationSubmissions: 1,
        invitationTokens: 1,
        orders: 1,
        accountLinks: 0,
        accountSessions: 0,
        cancellationFeedback: 0,
        emailSuppressions: 1,
      },
    });

    const columns: Array<{ table_name: string; column_name: string }> = await stack.db.query(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type IN ('text', 'jsonb', 'json', 'character varying')`,
    );
    expect(columns.length).toBeGreaterThan(20);
    for (const needle of ['quentin.erasable', 'Zyxwvut', '555 0199', 'Sam Inviter']) {
      for (const { table_name, column_name } of columns) {
        const hits = await stack.db.query(`SELECT 1 FROM "${table_name}" WHERE "${column_name}"::text ILIKE $1 LIMIT 1`, [`%${needle}%`]);
        expect({ table_name, column_name, needle, hits: hits.length }).toEqual({ table_name, column_name, needle, hits: 0 });
      }
    }

    const [order] = await stack.db.query(
      `SELECT amount_cents, status, plan_id, payment_intent_id, email, name, paid_at FROM orders WHERE id = $1`,
      [orderId],
    );
    expect(order).toMatchObject({
      amount_cents: BLACKCARD_CENTS,
      status: 'succeeded',
      plan_id: 'blackcard-vip',
      payment_intent_id: expect.stringMatching(/^pi_/),
      name: '[erased]',
    });
    expect(order.email).toMatch(/^erased\+[0-9a-f-]{36}@invalid$/);
    expect(order.paid_at).toBeInstanceOf(Date);
    expect((await stack.db.query(`SELECT count(*)::int AS n FROM invitation_tokens WHERE expires_at > now()`))[0].n).toBe(1);

    // The figures of the range do not change: the purchase stays, only who made it is gone.
    expect(await funnel()).toEqual(before);
    expect((await admin(`/api/admin/people?email=${encodeURIComponent(INVITEE.email)}`).expect(200)).body).toMatchObject({
      lead: null,
      invitation: null,
      orders: [],
    });
    await http()
      .post('/api/admin/people/erase')
      .set('cookie', cookie)
      .set('x-csrf-token', csrfToken)
      .send({ email: INVITEE.email })
      .expect(404);

    const audit = await stack.db.query(`SELECT action, target FROM admin_audit_log WHERE action = 'person.erase'`);
    expect(audit).toHaveLength(1);
    expect(audit[0].target).toMatch(new RegExp(`^erasure:[0-9a-f-]{36} lead:[0-9a-f-]{36} invitation:[0-9a-f-]{36} order:${orderId}$`));
  });

  it('refuses an erase without an address with a 400', async () => {
    const res = await http().post('/api/admin/people/erase').set('cookie', cookie).set('x-csrf-token', csrfToken).send({});
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('email is required');
  });
});

describe('test orders (the sandbox, Stripe test mode)', () => {
  it('are counted apart: never in purchases, revenue, plans, referrals, upgrades or invitations', async () => {
    const before = await funnel();
    await payOneTime(BUYER, 'Una Upgrader', planOf('6-month').name, planOf('6-month').amount, { referral: 'ref-alpha' });
    await waitFor(async () => (await funnel()).testOrders.purchases === before.testOrders.purchases + 1, 'test order paid', 30_000);
    const after = await funnel();
    expect(after.testOrders).toEqual({
      purchases: before.testOrders.purchases + 1,
      revenueCents: before.testOrders.revenueCents + toMinorUnits(planOf('6-month').amount, CURRENCY),
    });
    expect({ ...after, testOrders: null }).toEqual({ ...before, testOrders: null });
  });
});
