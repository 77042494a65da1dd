import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { RevenueReport } from '@contracts/revenue';
import type { RowQuery } from './support/revenue-rows';
import type { Stack } from './support/stack';

/**
 * The revenue dashboard over a simulated 2025 of 32 paying members, written row by row as
 * checkout, renewals, failed and recovered invoices, refunds, disputes, pauses and cancellations
 * write them. Every expected figure below was worked out by hand from the timeline in the comments, in
 * units of the default plan's monthly price (S) and the yearly plan's price (Y): a figure that
 * came from the dashboard's own SQL would prove nothing.
 *
 * The site is a copy of the one under test (SITE_DIR, else site/) with two plans added for the
 * fixture, priced from the default plan: 'fixture-yearly' (a yearly subscription, ten months'
 * price) and 'fixture-plus' (a second monthly product at twice the price).
 */
const source = process.env.SITE_DIR || join(__dirname, '../../site');
const siteDir = mkdtempSync(join(tmpdir(), 'revenue-site-'));
cpSync(source, siteDir, { recursive: true });
const settings = JSON.parse(readFileSync(join(siteDir, 'site.json'), 'utf8')) as {
  plans: Array<Record<string, unknown> & { id: string; amount: number; product: string }>;
  offers: { default: string };
};
const base = settings.plans.find((p) => p.id === settings.offers.default)!;
settings.plans.push(
  { id: 'fixture-yearly', name: 'Fixture Yearly', amount: base.amount * 10, kind: 'subscription', interval: 'year', product: base.product },
  { id: 'fixture-plus', name: 'Fixture Plus', amount: base.amount * 2, kind: 'subscription', interval: 'month', product: 'fixture-plus' },
);
writeFileSync(join(siteDir, 'site.json'), JSON.stringify(settings));
process.env.SITE_DIR = siteDir;

const ADMIN = { email: 'revenue.admin@example.com', password: 'a long enough revenue password' };
let stack: Stack;
let cookie = '';
let rows: typeof import('./support/revenue-rows');
let plans: typeof import('@contracts/plans');
let products: typeof import('@contracts/products');
let money: typeof import('@contracts/money');
let S = 0;
let Y = 0;
let F = 0;
let currency = '';

const http = () => request(stack.url);
const admin = (path: string) => http().get(path).set('cookie', cookie);
const at = (month: number, day = 10, year = 2025) =>
  `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T12:00:00.000Z`;
const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const mail = (who: string) => `${who.toLowerCase()}@revenue.example`;

/** The simulated year: who paid which months of 2025 (1 = January), and what else happened to them. */
async function seedYear(): Promise<void> {
  const query: RowQuery = (sql, params) => stack.db.query(sql, params);
  const { seedOrder, seedFailure, seedRefund, seedDispute, seedMembership, seedPause, seedCancellation } = rows;
  const std = { planId: plans.OFFERS.default.id, kind: 'subscription' as const, amountCents: S, currency };
  const plus = { planId: 'fixture-plus', kind: 'subscription' as const, amountCents: 2 * S, currency };
  const yearly = { planId: 'fixture-yearly', kind: 'subscription' as const, amountCents: Y, currency };
  const product = products.productOf(plans.OFFERS.default.id)!;
  const monthly = (months: number[], day = 10) => months.map((m) => at(m, day));
  const member = async (who: string, status: 'active' | 'canceling' | 'past_due' | 'ended', orderId: string, what = product) =>
    seedMembership(query, { email: mail(who), product: what, status, orderId, grantedAt: at(1) });

  // A1–A4 pay every month from January, A5–A6 from March, A7–A8 from June.
  for (const [who, from] of [
    ['A1', 1],
    ['A2', 1],
    ['A3', 1],
    ['A4', 1],
    ['A6', 3],
    ['A7', 6],
    ['A8', 6],
  ] as const) {
    const o = await seedOrder(query, { ...std, email: mail(who), payments: monthly(span(from, 12)), status: 'active' });
    await member(who, 'active', o.orderId);
  }
  // A5 joins on 2 March and takes the one-click upsell on the 4th: that order decides the membership.
  const a5 = await seedOrder(query, { ...std, email: mail('A5'), payments: [at(3, 2), ...monthly(span(4, 12))], status: 'active' });
  const fullPayment = plans.planOf('full-payment');
  const o2 = await seedOrder(query, {
    planId: fullPayment.id,
    kind: 'one-time',
    amountCents: F,
    currency,
    email: mail('A5'),
    payments: [at(3, 4)],
    status: 'succeeded',
    oneClickSourceId: a5.orderId,
  });
  await member('A5', 'active', o2.orderId);
  // O1 buys the one-time plan only: no MRR.
  const o1 = await seedOrder(query, {
    planId: fullPayment.id,
    kind: 'one-time',
    amountCents: F,
    currency,
    email: mail('O1'),
    payments: [at(3, 3)],
    status: 'succeeded',
  });
  await member('O1', 'active', o1.orderId);

  // B1–B3 pay January to April, B4–B5 February to July, then cancel: voluntary churn in May and August.
  for (const [who, from, to] of [
    ['B1', 1, 4],
    ['B2', 1, 4],
    ['B3', 1, 4],
    ['B4', 2, 7],
    ['B5', 2, 7],
  ] as const) {
    const o = await seedOrder(query, { ...std, email: mail(who), payments: monthly(span(from, to)), status: 'canceled' });
    await member(who, 'ended', o.orderId);
  }
  // C1–C2 pay January to May, C3 April to August; the next renewal fails and is never paid: involuntary churn in June and September.
  for (const [who, from, to] of [
    ['C1', 1, 5],
    ['C2', 1, 5],
    ['C3', 4, 8],
  ] as const) {
    const o = await seedOrder(query, { ...std, email: mail(who), payments: monthly(span(from, to)), status: 'canceled' });
    await seedFailure(query, o.orderId, `in_unpaid_${who}`, at(to + 1));
    await member(who, 'ended', o.orderId);
  }
  // D1–D2 (from February): April's renewal fails on the 10th and is paid on the 15th. D3 (from January): July's, paid on the 14th;
  // D3 has asked to cancel at the period's end.
  for (const who of ['D1', 'D2']) {
    const o = await seedOrder(query, {
      ...std,
      email: mail(who),
      payments: [at(2), at(3), at(4, 15), ...monthly(span(5, 12))],
      status: 'active',
      invoiceIds: { 2: `in_late_${who}` },
    });
    await seedFailure(query, o.orderId, `in_late_${who}`, at(4, 10));
    await member(who, 'active', o.orderId);
  }
  const d3 = await seedOrder(query, {
    ...std,
    email: mail('D3'),
    payments: [...monthly(span(1, 6)), at(7, 14), ...monthly(span(8, 12))],
    status: 'active',
    cancelAtPeriodEnd: true,
    invoiceIds: { 6: 'in_late_D3' },
  });
  await seedFailure(query, d3.orderId, 'in_late_D3', at(7, 10));
  await member('D3', 'canceling', d3.orderId);

  // E1 pays on 5 March and is refunded in full on the 20th: never a paying member.
  const e1 = await seedOrder(query, { ...std, email: mail('E1'), payments: [at(3, 5)], status: 'canceled', accessRevokedAt: at(3, 20) });
  await seedRefund(query, { orderId: e1.orderId, paymentId: e1.paymentIds[0], amountCents: S, currency, at: at(3, 20), endsAccess: true });
  await member('E1', 'ended', e1.orderId);
  // E2 pays January to June; June's payment is refunded in full on the 25th: paid for January to May, voluntary churn in June.
  const e2 = await seedOrder(query, {
    ...std,
    email: mail('E2'),
    payments: monthly(span(1, 6)),
    status: 'canceled',
    accessRevokedAt: at(6, 25),
  });
  await seedRefund(query, { orderId: e2.orderId, paymentId: e2.paymentIds[5], amountCents: S, currency, at: at(6, 25), endsAccess: true });
  await member('E2', 'ended', e2.orderId);
  // E3 pays February to December, half of August's refunded (still paying); January 2026's renewal fails: past due now.
  const e3 = await seedOrder(query, { ...std, email: mail('E3'), payments: monthly(span(2, 12)), status: 'past_due' });
  await seedRefund(query, { orderId: e3.orderId, paymentId: e3.paymentIds[6], amountCents: Math.floor(S / 2), currency, at: at(8, 20) });
  await seedFailure(query, e3.orderId, 'in_unpaid_E3', at(1, 10, 2026));
  await member('E3', 'past_due', e3.orderId);

  // F1 pays January to March, cancels, and comes back in July; F2 pays February and March, and comes back in September.
  for (const [who, first, again] of [
    ['F1', span(1, 3), span(7, 12)],
    ['F2', span(2, 3), span(9, 12)],
  ] as const) {
    await seedOrder(query, { ...std, email: mail(who), payments: monthly([...first]), status: 'canceled' });
    const back = await seedOrder(query, { ...std, email: mail(who), payments: monthly([...again]), status: 'active' });
    await member(who, 'active', back.orderId);
  }

  // G1 pays the default plan all year and adds the plus plan from May: expansion of 2S in May.
  const g1 = await seedOrder(query, { ...std, email: mail('G1'), payments: monthly(span(1, 12)), status: 'active' });
  const g1plus = await seedOrder(query, { ...plus, email: mail('G1'), payments: monthly(span(5, 12)), status: 'active' });
  await member('G1', 'active', g1.orderId);
  await member('G1', 'active', g1plus.orderId, 'fixture-plus');
  // G2 pays the default plan January to April, then the yearly plan in May: contraction of S - Y/12 in May.
  await seedOrder(query, { ...std, email: mail('G2'), payments: monthly(span(1, 4)), status: 'canceled' });
  const g2 = await seedOrder(query, { ...yearly, email: mail('G2'), payments: [at(5)], status: 'active' });
  await member('G2', 'active', g2.orderId);
  // G3 pays the plus plan March to June, then the default plan from July: contraction of S in July.
  const g3plus = await seedOrder(query, { ...plus, email: mail('G3'), payments: monthly(span(3, 6)), status: 'canceled' });
  const g3 = await seedOrder(query, { ...std, email: mail('G3'), payments: monthly(span(7, 12)), status: 'active' });
  await member('G3', 'active', g3.orderId);
  await member('G3', 'ended', g3plus.orderId, 'fixture-plus');

  // H1 pays the yearly plan on 1 February, H2 on 10 August.
  for (const [who, paid] of [
    ['H1', at(2, 1)],
    ['H2', at(8)],
  ] as const) {
    const o = await seedOrder(query, { ...yearly, email: mail(who), payments: [paid], status: 'active' });
    await member(who, 'active', o.orderId);
  }

  // I1 pays January to September and disputes September's payment on the 20th, lost on 1 October (a refund of
  // reason 'dispute'): paid for January to August, voluntary churn in September. I2 (from March) disputes November's and wins.
  const i1 = await seedOrder(query, {
    ...std,
    email: mail('I1'),
    payments: monthly(span(1, 9)),
    status: 'canceled',
    accessRevokedAt: at(10, 1),
  });
  await seedDispute(query, { orderId: i1.orderId, paymentId: i1.paymentIds[8], amountCents: S, currency, at: at(9, 20), status: 'lost' });
  await seedRefund(query, {
    orderId: i1.orderId,
    paymentId: i1.paymentIds[8],
    amountCents: S,
    currency,
    at: at(10, 1),
    reason: 'dispute',
    endsAccess: true,
  });
  await member('I1', 'ended', i1.orderId);
  const i2 = await seedOrder(query, { ...std, email: mail('I2'), payments: monthly(span(3, 12)), status: 'active' });
  await seedDispute(query, { orderId: i2.orderId, paymentId: i2.paymentIds[8], amountCents: S, currency, at: at(11, 5), status: 'won' });
  await member('I2', 'active', i2.orderId);

  // P1 pays January to April, pauses on 20 April for two months (May's and June's renewals are void) and pays again from
  // July: paused in May, on pause in May and June, resumed in July; never churned.
  const p1 = await seedOrder(query, {
    ...std,
    email: mail('P1'),
    payments: [...monthly(span(1, 4)), ...monthly(span(7, 12))],
    status: 'active',
  });
  await seedPause(query, { orderId: p1.orderId, at: at(4, 20), months: 2, resumesAt: '2025-07-10T11:00:00.000Z' });
  await member('P1', 'active', p1.orderId);
  // P2 pays March to August, pauses on 25 August for three months and cancels on 1 October, before October's renewal:
  // the subscription ends with the period under way, so only September was paused; voluntary churn in October, of no MRR.
  const p2 = await seedOrder(query, { ...std, email: mail('P2'), payments: monthly(span(3, 8)), status: 'canceled' });
  await seedPause(query, { orderId: p2.orderId, at: at(8, 25), months: 3, resumesAt: '2025-11-10T11:00:00.000Z' });
  await seedCancellation(query, { orderId: p2.orderId, at: at(10, 1) });
  await member('P2', 'ended', p2.orderId);

  // T1 pays all year in the sandbox: a test order, in the test figures only.
  const t1 = await seedOrder(query, { ...std, email: mail('T1'), payments: monthly(span(1, 12)), status: 'active', livemode: false });
  await member('T1', 'active', t1.orderId);
}

beforeAll(async () => {
  const support = await import('./support/stack');
  const { adminCreate } = await import('./support/admin');
  rows = await import('./support/revenue-rows');
  plans = await import('@contracts/plans');
  products = await import('@contracts/products');
  money = await import('@contracts/money');
  currency = plans.CURRENCY;
  S = money.toMinorUnits(plans.OFFERS.default.amount, currency);
  Y = money.toMinorUnits(plans.planOf('fixture-yearly').amount, currency);
  F = money.toMinorUnits(plans.planOf('full-payment').amount, currency);
  stack = await support.startStack({ STRIPE_SECRET_KEY: '' }, { worker: false });
  await stack.db.query(
    `TRUNCATE orders, payments, payment_failures, refunds, disputes, memberships, payment_events, sandbox_objects,
              admin_accounts, admin_sessions, admin_audit_log CASCADE`,
  );
  expect(await adminCreate(ADMIN.email, ADMIN.password)).toMatchObject({ code: 0 });
  const login = await http().post('/api/admin/login').send(ADMIN).expect(200);
  cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? [])[0].split(';')[0];
  await seedYear();
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

const year = async (mode = 'live'): Promise<RevenueReport> =>
  (await admin(`/api/admin/revenue?from=2025-01&to=2025-12&mode=${mode}`).expect(200)).body;

it('answers 401 to anyone not signed in as an admin, for the report and every export', async () => {
  for (const path of ['/api/admin/revenue', '/api/admin/revenue/export.csv?table=months']) {
    const res = await http().get(path).expect(401);
    expect(res.body.message).toBe('Please sign in as an admin to continue.');
  }
});

it('refuses a range or mode it cannot read, readably', async () => {
  for (const [query, message] of [
    ['from=2025-13', 'from must be a month written YYYY-MM, such as 2025-01'],
    ['from=2025-06&to=2025-05', 'from must not be after to'],
    ['from=2020-01&to=2025-01', 'The range can be at most 36 months'],
    ['mode=real', 'mode must be live or test'],
  ]) {
    const res = await admin(`/api/admin/revenue?${query}`).expect(400);
    expect(JSON.stringify(res.body.message)).toContain(message);
  }
  const res = await admin('/api/admin/revenue/export.csv?table=secrets').expect(400);
  expect(JSON.stringify(res.body.message)).toContain('table must be one of: months, members, plans, cohorts');
});

it("MRR by month, with each month's new, expansion, contraction, churned and reactivated MRR, as worked out by hand", async () => {
  const report = await year();
  expect(report).toMatchObject({ mode: 'live', currency, from: '2025-01', to: '2025-12' });
  // [month, default-plan units (S; the plus plan is 2), yearly plans (Y/12), paying members]
  const mrr: Array<[string, number, number, number]> = [
    ['2025-01', 16, 0, 16],
    ['2025-02', 22, 1, 23],
    ['2025-03', 28, 1, 28],
    ['2025-04', 27, 1, 27],
    ['2025-05', 24, 2, 23], // P1 on pause: a member at no MRR, not a paying one
    ['2025-06', 23, 2, 22],
    ['2025-07', 24, 2, 24],
    ['2025-08', 22, 3, 23],
    ['2025-09', 20, 3, 21], // P2 on pause
    ['2025-10', 20, 3, 21],
    ['2025-11', 20, 3, 21],
    ['2025-12', 20, 3, 21],
  ];
  expect(report.months.map((m) => [m.month, m.mrrCents, m.payingMembers])).toEqual(
    mrr.map(([month, s, y, paying]) => [month, Math.round(s * S + (y * Y) / 12), paying]),
  );
  const moves = (m: RevenueReport['months'][number]) => [
    m.month,
    m.newMembers,
    m.newCents,
    m.expansionCents,
    m.contractionCents,
    m.churnedCents,
    m.reactivatedMembers,
    m.reactivatedCents,
  ];
  expect(report.months.map(moves)).toEqual([
    ['2025-01', 16, 16 * S, 0, 0, 0, 0, 0],
    ['2025-02', 7, Math.round(6 * S + Y / 12), 0, 0, 0, 0, 0],
    ['2025-03', 5, 6 * S, 0, 0, 0, 0, 0],
    ['2025-04', 1, S, 0, 0, 2 * S, 0, 0],
    ['2025-05', 0, 0, 2 * S, Math.round(S - Y / 12), 3 * S, 0, 0],
    ['2025-06', 2, 2 * S, 0, 0, 3 * S, 0, 0],
    ['2025-07', 0, 0, 0, S, 0, 1, S],
    ['2025-08', 1, Math.round(Y / 12), 0, 0, 2 * S, 0, 0],
    ['2025-09', 0, 0, 0, 0, 2 * S, 1, S],
    ['2025-10', 0, 0, 0, 0, 0, 0, 0],
    ['2025-11', 0, 0, 0, 0, 0, 0, 0],
    ['2025-12', 0, 0, 0, 0, 0, 0, 0],
  ]);
  // Now: the subscriptions active or past due today (D3's, canceling at its period's end, still pays; P1's pause is over).
  expect([report.mrrNowCents, report.payingNow]).toEqual([Math.round(20 * S + (3 * Y) / 12), 21]);
});

it('voluntary and involuntary churn, failed-payment recovery, refunds and disputes by month', async () => {
  const report = await year();
  const byMonth = Object.fromEntries(report.months.map((m) => [m.month.slice(5), m]));
  const pick = (keys: Array<keyof RevenueReport['months'][number]>) =>
    Object.fromEntries(
      Object.entries(byMonth)
        .map(([month, m]) => [month, keys.map((k) => m[k])] as const)
        .filter(([, values]) => values.some((v) => v !== 0)),
    );
  expect(pick(['churnedVoluntary', 'churnedInvoluntary'])).toEqual({
    '04': [2, 0], // F1, F2 canceled
    '05': [3, 0], // B1–B3 canceled
    '06': [1, 2], // E2 refunded; C1, C2 never paid June
    '08': [2, 0], // B4, B5 canceled
    '09': [1, 1], // I1's payment lost to a dispute; C3 never paid September
    '10': [1, 0], // P2 canceled during the pause (P1's pause in May and June is not churn)
  });
  expect(pick(['failedPayments', 'recoveredPayments'])).toEqual({ '04': [2, 2], '06': [2, 0], '07': [1, 1], '09': [1, 0] });
  expect(report.recovery).toEqual({ failed: 6, recovered: 3, rate: 0.5 });
  expect(pick(['refunds', 'refundedCents'])).toEqual({ '03': [1, S], '06': [1, S], '08': [1, Math.floor(S / 2)] });
  expect(pick(['disputes', 'disputesLost', 'disputedCents'])).toEqual({ '09': [1, 1, S], '11': [1, 0, S] });
});

it('a pause is not churn: the MRR leaves as paused, comes back as resumed, and the members on pause are counted', async () => {
  const report = await year();
  // [members on pause, members whose pause began, their MRR, members paying again after a pause, their MRR]
  const pauses = report.months
    .map((m) => [m.month.slice(5), [m.membersOnPause, m.pausedMembers, m.pausedCents, m.resumedMembers, m.resumedCents]] as const)
    .filter(([, values]) => values.some((v) => v !== 0));
  expect(Object.fromEntries(pauses)).toEqual({
    '05': [1, 1, S, 0, 0], // P1's pause begins: May's renewal is void
    '06': [1, 0, 0, 0, 0], // P1 still on pause: no move
    '07': [0, 0, 0, 1, S], // P1 pays again: resumed, not reactivated
    '09': [1, 1, S, 0, 0], // P2's pause begins; they cancel before October's renewal (churn, above), so October is not paused
  });
});

it('the cohort table: members still paying (or on pause) N months after the month they joined', async () => {
  const { cohorts } = await year();
  expect(cohorts).toEqual([
    { month: '2025-01', members: 16, paying: [16, 16, 16, 15, 12, 9, 10, 10, 9, 9, 9, 9] }, // P1 still a member while on pause
    { month: '2025-02', members: 7, paying: [7, 7, 6, 6, 6, 6, 4, 5, 5, 5, 5] },
    { month: '2025-03', members: 5, paying: [5, 5, 5, 5, 5, 5, 5, 4, 4, 4] }, // P2 a member until September, on pause
    { month: '2025-04', members: 1, paying: [1, 1, 1, 1, 1, 0, 0, 0, 0] },
    { month: '2025-06', members: 2, paying: [2, 2, 2, 2, 2, 2, 2] },
    { month: '2025-08', members: 1, paying: [1, 1, 1, 1, 1] },
  ]);
});

it('active members by plan, average revenue and lifetime value per plan, and the one-click take rate', async () => {
  const report = await year();
  const standard = plans.OFFERS.default.id;
  expect(report.activeByPlan).toEqual(
    expect.arrayContaining([
      { planId: standard, active: 15, canceling: 1, pastDue: 1 },
      { planId: 'fixture-yearly', active: 3, canceling: 0, pastDue: 0 },
      { planId: 'fixture-plus', active: 1, canceling: 0, pastDue: 0 },
      { planId: 'full-payment', active: 2, canceling: 0, pastDue: 0 },
    ]),
  );
  expect(report.activeByPlan).toHaveLength(4);
  // Default plan: 33 orders, 245 payments of S, refunds of S (E1, E2), S/2 (E3) and S lost to a dispute (I1).
  // 242 months paid for and 3 on pause (P1's May and June, P2's September): a month of membership pays 242S/245.
  // 227 months paid for or paused from January to November (209 before the pauses, P1's 11, P2's 7) followed by
  // another or not, 14 not (13, and P2's September): a buyer stays 227/14 months.
  const standardNet = 242 * S - Math.floor(S / 2);
  expect(Object.fromEntries(report.plans.map((p) => [p.planId, p]))).toEqual({
    [standard]: {
      planId: standard,
      buyers: 33,
      netCents: standardNet,
      averageCents: Math.round(standardNet / 33),
      lifetimeValueCents: Math.round((S * 242 * 227) / (245 * 14)),
    },
    // G1 (8 months) and G3 (4) at 2S; 11 months before December, one not followed (G3 in June).
    'fixture-plus': { planId: 'fixture-plus', buyers: 2, netCents: 24 * S, averageCents: 12 * S, lifetimeValueCents: 22 * S },
    // Nobody left a yearly plan: no lifetime to estimate yet.
    'fixture-yearly': { planId: 'fixture-yearly', buyers: 3, netCents: 3 * Y, averageCents: Y, lifetimeValueCents: null },
    'full-payment': { planId: 'full-payment', buyers: 2, netCents: 2 * F, averageCents: F, lifetimeValueCents: F },
  });
  expect(report.oneClick).toEqual({ buyers: 33, took: 1, rate: 1 / 33, byPlan: [{ planId: 'full-payment', orders: 1 }] });
});

it('counts test orders apart: the test figures hold the sandbox member only', async () => {
  const report = await year('test');
  expect(report.months.map((m) => [m.mrrCents, m.payingMembers])).toEqual(Array(12).fill([S, 1]));
  expect([report.months[0].newMembers, report.mrrNowCents, report.payingNow]).toEqual([1, S, 1]);
  expect(report.cohorts).toEqual([{ month: '2025-01', members: 1, paying: Array(12).fill(1) }]);
});

it('exports each table as CSV, amounts in whole units of the currency', async () => {
  const units = (cents: number) => (cents / money.minorUnitsPerMajor(currency)).toFixed(money.minorUnitDigits(currency));
  const csv = async (table: string) => {
    const res = await admin(`/api/admin/revenue/export.csv?table=${table}&from=2025-01&to=2025-12`).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="revenue-${table}-2025-01-to-2025-12.csv"`);
    return res.text.split('\r\n');
  };
  const code = currency.toLowerCase();
  const months = await csv('months');
  expect(months[0].split(',').slice(0, 4)).toEqual(['month', `mrr_${code}`, 'paying_members', `new_${code}`]);
  expect(months[5].split(',').slice(0, 8)).toEqual([
    '2025-05',
    units(Math.round(24 * S + (2 * Y) / 12)),
    '23',
    units(0),
    '0',
    units(2 * S),
    units(Math.round(S - Y / 12)),
    units(3 * S),
  ]);
  // Members on pause, paused and resumed MRR and members, after the columns above.
  expect(months[0].split(',').slice(19)).toEqual([
    'members_on_pause',
    `paused_${code}`,
    'paused_members',
    `resumed_${code}`,
    'resumed_members',
  ]);
  expect(months[5].split(',').slice(19)).toEqual(['1', units(S), '1', units(0), '0']);
  expect(months[7].split(',').slice(19)).toEqual(['0', units(0), '0', units(S), '1']);
  expect(months).toHaveLength(14);
  const cohorts = await csv('cohorts');
  expect(cohorts[0]).toBe(['cohort', 'members', ...span(0, 11).map((n) => `month_${n}`)].join(','));
  expect(cohorts[1]).toBe('2025-01,16,16,16,16,15,12,9,10,10,9,9,9,9');
  // Shorter cohorts end in empty cells: every row has the header's columns.
  expect(cohorts[5]).toBe('2025-06,2,2,2,2,2,2,2,2,,,,,');
  const members = await csv('members');
  expect(members).toContain(`${plans.OFFERS.default.id},${plans.OFFERS.default.name},15,1,1`);
  const planRows = await csv('plans');
  expect(planRows).toContain(`fixture-yearly,Fixture Yearly,3,${units(3 * Y)},${units(Y)},`);
});
