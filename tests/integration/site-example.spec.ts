import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { SmtpSink } from '../fakes/smtp-sink';
import type { Stack } from './support/stack';

/**
 * A second, complete site folder (tests/fixtures/site-example: another brand, EUR, two plans, no
 * instalments) read through the real loaders and sold end to end by the API and the worker. It
 * proves a seller's own folder works, not just the default one. The web app is built from it into
 * a folder of its own (WEB_OUT_DIR, leaving dist/ alone), which the API serves. The app reads the
 * site when its modules load, so they are imported after SITE_DIR is set.
 */
const exampleDir = join(__dirname, '../fixtures/site-example');
process.env.SITE_DIR = exampleDir;
const webDir = mkdtempSync(join(tmpdir(), 'site-example-web-'));
const frontendDir = join(__dirname, '../../frontend');

/** The frontend's own build script (frontend/package.json), client then SSR prerender, from the example folder. */
async function buildExampleWeb(): Promise<void> {
  const vite = join(__dirname, '../../node_modules/.bin/vite');
  const env = { ...process.env, SITE_DIR: exampleDir, WEB_OUT_DIR: webDir };
  await promisify(execFile)(vite, ['build'], { cwd: frontendDir, env });
  await promisify(execFile)(vite, ['build', '--ssr', 'src/entry-server.tsx'], { cwd: frontendDir, env });
}

const SECRET = 'whsec_siteexamplesecret000000000000';
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };
const smtp = new SmtpSink();
let stack: Stack;
let support: typeof import('./support/stack');
let folder: typeof import('@contracts/site/site-folder');

beforeAll(async () => {
  support = await import('./support/stack');
  folder = await import('@contracts/site/site-folder');
  await buildExampleWeb();
  stack = await support.startStack({
    STATIC_DIR: webDir,
    SMTP_URL: await smtp.start(),
    SANDBOX_WEBHOOK_SECRET: SECRET,
    STRIPE_SECRET_KEY: '',
  });
}, 300_000);
afterAll(async () => {
  await stack?.stop();
  await smtp.stop();
  delete process.env.SITE_DIR;
  rmSync(webDir, { recursive: true, force: true });
});

it('loads every file of the example folder through the real loaders', () => {
  const settings = folder.loadSite(exampleDir);
  expect(settings.brand.name).toBe('Northwind Coaching');
  expect(settings.currency).toBe('EUR');
  expect(settings.plans.map((p) => [p.id, p.amount, p.instalments])).toEqual([
    ['monthly', 89, undefined],
    ['annual', 890, undefined],
  ]);
  expect(folder.loadTheme(exampleDir).themeColor).toBe('#0f2a1f');

  const defaultDir = folder.defaultSiteDir(__dirname);
  const files = ['copy', 'emails'].flatMap((sub) => readdirSync(join(defaultDir, sub)).map((name) => `${sub}/${name}`));
  expect(files.length).toBeGreaterThan(20);
  for (const file of files) {
    const copy = JSON.stringify(folder.loadCopy(exampleDir, defaultDir, file, settings));
    // Every site term is filled in with the example's words, never the default's.
    expect({ file, brightpath: /Brightpath|Clear\b|\$\d/.test(copy) }).toEqual({ file, brightpath: false });
  }
  const landing = JSON.stringify(folder.loadCopy(exampleDir, defaultDir, 'copy/landing.json', settings));
  expect(landing).toContain('€89');
  expect(landing).toContain('Bloom');
});

it('takes a lead, sells the default plan for 89 EUR in the sandbox and e-mails a euro receipt', async () => {
  const buyer = 'site-example-buyer@example.com';
  const http = () => request(stack.url);
  await http().post('/api/leads').send({ email: buyer, name: 'Example Buyer' }).expect(201);
  expect(await stack.db.query(`SELECT count(*)::int AS n FROM leads WHERE email_normalized = $1`, [buyer])).toEqual([{ n: 1 }]);

  // The default plan, as /checkout without ?plan= sells it.
  const setup = await http().post('/api/create-setup-intent').send({ email: buyer, name: 'Example Buyer', source: 'bloom' }).expect(200);
  const clientSecret: string = setup.body.clientSecret;
  await http()
    .post('/api/sandbox/confirm-setup')
    .send({ clientSecret, card, returnUrl: `${stack.url}/checkout` })
    .expect(200);
  const confirmed = await http()
    .post('/api/confirm-subscription')
    .send({
      email: buyer,
      name: 'Example Buyer',
      source: 'bloom',
      setupIntentId: clientSecret.split('_secret_')[0],
      plan: 'Bloom Monthly',
      amount: 89,
    });
  expect(confirmed.status).toBe(200);
  const orderOf = async () =>
    (await stack.db.query(`SELECT id, plan_id, amount_cents, currency, paid_effects FROM orders WHERE email = $1`, [buyer]))[0];
  await support.waitFor(async () => Object.keys((await orderOf())?.paid_effects ?? {}).length === 4, 'first payment settled');
  expect(await orderOf()).toMatchObject({ plan_id: 'monthly', amount_cents: 8900, currency: 'eur' });
  // This order's own subscription: other specs of the run share the database.
  const [payment] = await stack.db.query(
    `SELECT amount_cents, currency FROM sandbox_objects WHERE object = 'subscription' AND order_id = $1`,
    [(await orderOf()).id],
  );
  expect(payment).toEqual({ amount_cents: 8900, currency: 'eur' });

  // What /success shows after its verification.
  const verified = await http().get(`/api/verify-subscription/${confirmed.body.subscriptionId}`).expect(200);
  expect(verified.body).toMatchObject({ status: 'active', amount: 89, plan: 'monthly' });

  await support.outboxDrained(stack.db);
  const receipts = () => smtp.messages.filter((m) => m.envelope.to.includes(buyer) && /receipt/i.test(m.subject ?? ''));
  await support.waitFor(() => receipts().length > 0, 'receipt');
  const [receipt] = receipts();
  expect(receipt.envelope.from).toBe('receipts@northwind.example');
  expect(receipt.subject).toContain('Bloom');
  expect(receipt.text).toContain('Northwind Coaching');
  expect(receipt.text).toContain('€89.00');
  expect(receipt.text).not.toMatch(/Brightpath|\$/);
});

it('serves the landing page built from the example folder: its brand and its price in euros', async () => {
  const landing = await request(stack.url).get('/').expect(200);
  expect(landing.text).toContain('Northwind Coaching');
  expect(landing.text).toContain('Bloom');
  expect(landing.text).toContain('€89');
  expect(landing.text).not.toMatch(/Brightpath|\$97/);
});
