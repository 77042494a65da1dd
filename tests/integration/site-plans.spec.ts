import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { SmtpSink } from '../fakes/smtp-sink';
import type { PaymentRow } from './support/payments';
import type { Stack } from './support/stack';

/**
 * Another seller's plans, set in a copy of the site folder alone (SITE_DIR): the standard plan
 * renamed and priced 89 EUR, and an annual plan added. The sandbox charges them in euros, the
 * worker's e-mails name them, and the sandbox clock renews the annual plan after a year, not a
 * month. The app reads the site when its modules load, so they are imported after SITE_DIR is set.
 */
const siteDir = mkdtempSync(join(tmpdir(), 'site-plans-'));
const settings = JSON.parse(readFileSync(join(__dirname, '../../site/site.json'), 'utf8')) as {
  currency: string;
  plans: Array<Record<string, unknown>>;
};
cpSync(join(__dirname, '../../site'), siteDir, { recursive: true });
settings.currency = 'EUR';
const standard = settings.plans.find((p) => p.id === 'standard') as Record<string, unknown>;
Object.assign(standard, { name: 'Monthly Circle', amount: 89 });
settings.plans.push({ id: 'circle-yearly', name: 'Annual Circle', amount: 890, kind: 'subscription', interval: 'year', product: 'annual-circle' });
writeFileSync(join(siteDir, 'site.json'), JSON.stringify(settings));
process.env.SITE_DIR = siteDir;

const SECRET = 'whsec_siteplanssecret00000000000000';
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const smtp = new SmtpSink();
let stack: Stack;
let support: typeof import('./support/stack');
let paymentsOf: (orderId: string) => Promise<PaymentRow[]>;
let paymentsSettled: (orderId: string, count: number) => Promise<void>;
let plans: typeof import('@contracts/plans');
let counter = 0;
let buyer = '';

const http = () => request(stack.url);
const post = (path: string, body: object) =>
  http()
    .post(path)
    .set('X-Forwarded-For', `198.51.100.${counter % 200}`)
    .send(body);

beforeAll(async () => {
  support = await import('./support/stack');
  const payments = await import('./support/payments');
  plans = await import('@contracts/plans');
  stack = await support.startStack({
    SMTP_URL: await smtp.start(),
    SANDBOX_WEBHOOK_SECRET: SECRET,
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    JOB_RETRY_HORIZON_S: '120',
  });
  paymentsOf = (orderId) => payments.paymentsOf(stack.db, orderId);
  paymentsSettled = (orderId, count) => payments.paymentsSettled(stack.db, orderId, count);
  // The app's modules are compiled here rather than before the hook starts, as static imports are.
}, 300_000);
afterAll(async () => {
  await stack?.stop();
  await smtp.stop();
  delete process.env.SITE_DIR;
  rmSync(siteDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await support.resetData(stack.db);
  await stack.db.query('TRUNCATE orders, payment_events, sandbox_objects, memberships CASCADE');
  await stack.db.query('UPDATE sandbox_clock SET offset_seconds = 0');
  smtp.reset();
  buyer = `site-plans-${++counter}@example.com`;
});

const orderOf = async () =>
  (await stack.db.query(`SELECT id, plan_id, amount_cents, currency, status, paid_effects FROM orders WHERE email = $1`, [buyer]))[0];
const advance = (advanceDays: number) => post('/api/sandbox/clock', { advanceDays }).expect(200);
const mailsTo = () => smtp.messages.filter((m) => m.envelope.to.includes(buyer));

/** Subscribes the buyer to a plan through the sandbox's card form, as /checkout does, and waits until the first payment settled. */
async function subscribe(planId: string, name: string, amount: number): Promise<string> {
  const setup = await post('/api/create-setup-intent', { email: buyer, name: 'Site Buyer', source: 'clear', planId }).expect(200);
  const clientSecret: string = setup.body.clientSecret;
  await post('/api/sandbox/confirm-setup', { clientSecret, card, returnUrl: `${stack.url}/checkout?plan=${planId}` }).expect(200);
  const setupIntentId = clientSecret.split('_secret_')[0];
  const confirmed = await post('/api/confirm-subscription', {
    email: buyer,
    name: 'Site Buyer',
    source: 'clear',
    setupIntentId,
    plan: name,
    amount,
  });
  expect(confirmed.status).toBe(200);
  await support.waitFor(async () => Object.keys((await orderOf())?.paid_effects ?? {}).length === 4, 'first payment settled');
  await support.outboxDrained(stack.db);
  return confirmed.body.subscriptionId as string;
}

it('charges the standard plan at its site price in the site currency, under its new name', async () => {
  const monthly = plans.planOf('standard');
  expect([monthly.name, monthly.amount, plans.CURRENCY]).toEqual(['Monthly Circle', 89, 'EUR']);
  // The old name and price are refused, naming the plan as the site calls it.
  const setup = await post('/api/create-setup-intent', { email: buyer, name: 'Site Buyer', source: 'clear' }).expect(200);
  const stale = await post('/api/confirm-subscription', {
    email: buyer,
    name: 'Site Buyer',
    source: 'clear',
    setupIntentId: (setup.body.clientSecret as string).split('_secret_')[0],
    plan: 'Standard Access',
    amount: 97,
  }).expect(400);
  expect(JSON.stringify(stale.body)).toContain('which is for \\"Monthly Circle\\"');
  await stack.db.query('TRUNCATE orders, sandbox_objects CASCADE');

  const subscriptionId = await subscribe('standard', monthly.name, monthly.amount);
  expect(await orderOf()).toMatchObject({ plan_id: 'standard', amount_cents: 8900, currency: 'eur', status: 'active' });
  const [charged] = await stack.db.query(`SELECT amount_cents, currency FROM sandbox_objects WHERE object = 'subscription'`);
  expect(charged).toEqual({ amount_cents: 8900, currency: 'eur' });
  const verified = await http().get(`/api/verify-subscription/${subscriptionId}`).expect(200);
  expect(verified.body).toMatchObject({ status: 'active', amount: 89, plan: 'standard' });
  await support.waitFor(async () => mailsTo().length > 0, 'receipt');
  const receipt = mailsTo()[0].text ?? '';
  expect(receipt).toContain('Monthly Circle');
  expect(receipt).not.toContain('Standard Access');
  // The membership of the product the site gives the plan.
  expect(await stack.db.query(`SELECT product, status FROM memberships WHERE email_normalized = $1`, [buyer])).toEqual([
    { product: 'clear', status: 'active' },
  ]);

  // A monthly plan renews after a month.
  await advance(31);
  await paymentsSettled((await orderOf()).id, 2);
  expect((await paymentsOf((await orderOf()).id)).map((p) => p.amount_cents)).toEqual([8900, 8900]);
});

it('sells an annual plan added in site.json, renewed by the sandbox clock after a year, not a month', async () => {
  const annual = plans.planOf('circle-yearly');
  expect(annual.displayText).toBe('€890/year');
  await subscribe('circle-yearly', annual.name, annual.amount);
  const orderId = (await orderOf()).id;
  expect(await orderOf()).toMatchObject({ plan_id: 'circle-yearly', amount_cents: 89000, currency: 'eur', status: 'active' });
  // Its product is the site's own: the database takes any product id site.json allows.
  expect(await stack.db.query(`SELECT product FROM memberships WHERE email_normalized = $1`, [buyer])).toEqual([
    { product: 'annual-circle' },
  ]);
  // The subscription's Price bills yearly, under a lookup key free of the brand.
  const [created] = await stack.db.query(`SELECT payload FROM payment_events WHERE type = 'customer.subscription.created'`);
  expect(created.payload.data.object.items.data[0].price).toMatchObject({
    lookup_key: 'plan-circle-yearly-yearly',
    recurring: { interval: 'year' },
  });

  // A month, then most of the year: nothing is billed.
  await advance(31);
  await advance(300);
  await support.outboxDrained(stack.db);
  expect((await paymentsOf(orderId)).map((p) => p.sequence)).toEqual([1]);
  // The year is over: the second year is charged, once.
  await advance(35);
  await paymentsSettled(orderId, 2);
  expect((await paymentsOf(orderId)).map((p) => p.amount_cents)).toEqual([89000, 89000]);
  expect((await orderOf()).status).toBe('active');
});
