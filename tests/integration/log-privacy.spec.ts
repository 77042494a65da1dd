import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { planOf } from '@contracts/plans';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { SmtpSink } from '../fakes/smtp-sink';
import { baseEnv, freePort, waitFor } from './support/stack';

/** The one-time plan these checkouts buy, from the site folder. */
const FULL_PAYMENT = planOf('full-payment');

const root = join(__dirname, '..', '..');
const API_MAIN = join(root, 'dist', 'backend', 'src', 'main.js');
const WORKER_MAIN = join(root, 'dist', 'worker', 'src', 'main.js');

/** Personal data and secrets of the journey below: none of them may appear in any log line. */
const EMAIL = 'Journey.Person@example.com';
const NAME = 'Zelda Quuxington';
const PHONE = '+1 555 0199';
const TOKEN = 'tok_9f8e7d6c5b4a3210';

/**
 * Every way a value can reach a log line: as typed, lower-cased, percent-encoded (%2B1%20555…,
 * journey.person%40example.com), form-encoded (+ for a space) and JSON-escaped, each part of a
 * name or an address's local part alone, and a phone number's digits with separators between them.
 */
function leakPatterns(...values: string[]): RegExp[] {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const forms = (value: string) => [
    value,
    encodeURIComponent(value),
    encodeURIComponent(value).replace(/%20/g, '+'),
    new URLSearchParams({ v: value }).toString().slice(2),
    JSON.stringify(value).slice(1, -1),
  ];
  const patterns = new Set<string>();
  for (const value of values) {
    for (const form of forms(value)) patterns.add(escape(form));
    // Each word of a name, and an address's local part (not the shared example domain).
    for (const part of value.split('@')[0].split(/\s+/)) if (part.length >= 4) for (const form of forms(part)) patterns.add(escape(form));
    const digits = value.replace(/\D/g, '');
    if (digits.length >= 7 && /^[+\d\s().-]+$/.test(value)) patterns.add(digits.slice(-7).split('').join('(?:\\D|%[0-9A-F]{2}){0,3}'));
  }
  return [...patterns].map((pattern) => new RegExp(pattern, 'i'));
}

const JOURNEY_DATA = leakPatterns(EMAIL, NAME, PHONE, TOKEN);
/** A lead the database refuses (a trigger), so that the error logging path is exercised too. */
const FAULTY_EMAIL = 'faulty.person@example.com';
const FAULTY_NAME = 'Ophelia Faultline';
const FAULTY_DATA = leakPatterns(FAULTY_EMAIL, FAULTY_NAME);

interface Running {
  child: ChildProcess;
  output: string[];
}

/** The compiled processes exactly as deployed, their stdout and stderr captured line by line. */
function run(main: string, env: NodeJS.ProcessEnv): Running {
  const child = spawn(process.execPath, [main], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  return { child, output };
}

async function stop(running: Running | undefined): Promise<void> {
  if (!running || running.child.exitCode !== null || running.child.signalCode !== null) return;
  const exited = new Promise((resolve) => running.child.once('exit', resolve));
  running.child.kill('SIGTERM');
  await exited;
}

describe('logs of a full lead journey (compiled API and worker, LOG_LEVEL=info)', () => {
  const affiliate = new FakeAffiliateServer();
  const smtp = new SmtpSink();
  /** The access token the gate issues in the journey: in a path, a query string and an e-mail job. */
  let issuedToken = '';
  /** The account sign-in token e-mailed in the journey: in a request body, a query string and a sealed job. */
  let accountToken = '';
  /** The unsubscribe token of the journey's checkout reminder: opened, posted, and posted forged. */
  let unsubscribeToken = '';
  let db: Client;
  let api: Running | undefined;
  let worker: Running | undefined;
  let apiUrl: string;
  let lines: string[] = [];

  /** Opt-in, checkout, refused input, a server fault and invitation tokens; then the worker's job. */
  async function journey(): Promise<void> {
    const http = () => request(apiUrl);
    await http()
      .post('/api/leads')
      .set('Cookie', '_fprom_tid=tid-0123456789abcdefghijkl')
      .send({ email: EMAIL, name: NAME, phone: PHONE, referral: 'partner7' })
      .expect(201);
    const checkout = `/checkout?plan=standard&email=${encodeURIComponent(EMAIL)}&name=${encodeURIComponent(NAME)}&phone=${encodeURIComponent(PHONE)}`;
    await http().get(checkout).expect(200);
    // Refused input, a malformed body and a server fault, each carrying the personal data.
    await http()
      .post('/api/leads')
      .send({ email: EMAIL, name: `${NAME}\u0000` })
      .expect(400);
    await http()
      .post('/api/leads')
      .send({ email: `${EMAIL}\u0000`, phone: PHONE })
      .expect(400);
    await http().post('/api/leads').set('Content-Type', 'application/json').send(`{"email":"${EMAIL}","name":"${NAME}"`).expect(400);
    await http().post('/api/leads').send({ email: FAULTY_EMAIL, name: FAULTY_NAME }).expect(500);
    // Invitation tokens of the next issue, in a path and in a query string.
    await http().get(`/api/validate-token/${TOKEN}`).expect(404);
    await http().get(`/blackcard?token=${TOKEN}&email=${encodeURIComponent(EMAIL)}`);
    await http().get(`/${encodeURIComponent(EMAIL)}`);
    // A real invitation: its token is validated, opened as /blackcard?token=…, and e-mailed by the worker.
    const gate = await http().post('/api/invitation-gate').send({ name: NAME, email: EMAIL, phone: PHONE, invitedBy: NAME }).expect(201);
    issuedToken = gate.body.accessToken;
    await http().get(`/api/validate-token/${issuedToken}`).expect(200);
    await http().get(`/blackcard?token=${issuedToken}`);
    await waitFor(() => smtp.messages.length === 1, 'the worker to send the invitation e-mail');
    // The buyer's account: an order, a sign-in link e-mailed by the worker, the link opened and exchanged.
    await http()
      .post('/api/create-payment-intent')
      .send({ email: EMAIL, name: NAME, source: 'clear', plan: FULL_PAYMENT.name, amount: FULL_PAYMENT.amount })
      .expect(200);
    await http().post('/api/account/link').send({ email: EMAIL }).expect(202);
    await http()
      .post('/api/account/link')
      .send({ email: `unknown.${EMAIL}` })
      .expect(202);
    const linkMail = await waitFor(
      () => smtp.messages.find((m) => m.subject?.includes('sign-in link')),
      'the worker to send the sign-in e-mail',
    );
    accountToken = /\/account\?token=([A-Za-z0-9_-]{43})/.exec(linkMail?.text ?? '')?.[1] ?? '';
    await http().get(`/account?token=${accountToken}`);
    await http().post('/api/account/session').send({ token: accountToken }).expect(200);
    await http().post('/api/account/session').send({ token: accountToken }).expect(400);
    // The lead's abandoned-checkout reminder (due after a second), and its unsubscribe link.
    const reminder = await waitFor(
      () => smtp.messages.find((m) => m.subject?.includes('one step away')),
      'the worker to send the checkout reminder',
    );
    unsubscribeToken = /\/api\/unsubscribe\?token=([A-Za-z0-9_.-]+)/.exec(reminder?.text ?? '')?.[1] ?? '';
    await http().get(`/api/unsubscribe?token=${unsubscribeToken}`).expect(200);
    await http().post(`/api/unsubscribe?token=${unsubscribeToken}`).type('form').send('List-Unsubscribe=One-Click').expect(200);
    await http().post(`/api/unsubscribe?token=${unsubscribeToken}A`).type('form').send('List-Unsubscribe=One-Click').expect(400);

    await waitFor(() => affiliate.signups().length === 1, 'the worker to call the affiliate service');
    await waitFor(
      async () => (await db.query('SELECT count(*)::int AS n FROM outbox WHERE completed_at IS NULL')).rows[0].n === 0,
      'the jobs to complete',
    );
    // Stopped before reading, so that every buffered line has been written.
    await stop(api);
    await stop(worker);
  }

  beforeAll(async () => {
    if (!existsSync(API_MAIN) || !existsSync(WORKER_MAIN)) throw new Error('dist/ is missing: run "npm run build:server" (npm test does)');
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    await db.query(
      'TRUNCATE leads, lead_submissions, invitations, orders, account_link_tokens, account_sessions, outbox, side_effects CASCADE',
    );
    // A database failure on the write path, so that error logging is part of the journey too.
    await db.query(`
      CREATE OR REPLACE FUNCTION refuse_faulty_lead() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.email_normalized = '${FAULTY_EMAIL}' THEN RAISE EXCEPTION 'refused for the test'; END IF;
        RETURN NEW;
      END $$`);
    await db.query(
      `CREATE OR REPLACE TRIGGER refuse_faulty_lead BEFORE INSERT ON leads FOR EACH ROW EXECUTE FUNCTION refuse_faulty_lead()`,
    );
    await affiliate.start();
    await smtp.start();
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      ...baseEnv(),
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      STATIC_DIR: join(root, 'frontend', 'dist'),
      AFFILIATE_API_URL: affiliate.url,
      AFFILIATE_API_KEY: 'log-test-key',
      SMTP_URL: smtp.url,
      // The sandbox's webhook deliveries of the journey's order reach this API.
      INTERNAL_API_URL: apiUrl,
      // Specs running beside this one share its Redis, and with it the per-client counts of
      // 127.0.0.1: the journey's one checkout and sign-in link must not meet their totals.
      RATE_LIMIT_INTENTS_PER_CLIENT: '100000',
      RATE_LIMIT_INTENTS_PER_EMAIL: '100000',
      RATE_LIMIT_ACCOUNT_LINKS_PER_CLIENT: '100000',
      ABANDONED_CHECKOUT_DELAY_S: '1',
    };
    const apiRun = run(API_MAIN, env);
    const workerRun = run(WORKER_MAIN, env);
    api = apiRun;
    worker = workerRun;
    await waitFor(async () => (await fetch(`${apiUrl}/api/health/live`).catch(() => null))?.ok, 'the API to listen');
    await journey();
    lines = [...apiRun.output, ...workerRun.output].join('').split('\n').filter(Boolean);
  });

  afterAll(async () => {
    await stop(api);
    await stop(worker);
    await affiliate.stop();
    await smtp.stop();
    await db.query('DROP TRIGGER IF EXISTS refuse_faulty_lead ON leads');
    await db.query('DROP FUNCTION IF EXISTS refuse_faulty_lead()');
    await db.end();
  });

  it('captures the request lines of the journey and the lines of the worker', () => {
    expect(lines.some((line) => line.includes('"path":"/checkout"') && line.includes('request completed'))).toBe(true);
    expect(lines.some((line) => line.includes('"path":"/api/validate-token/[redacted]"'))).toBe(true);
    expect(lines.some((line) => line.includes('"process":"worker"'))).toBe(true);
    expect(lines.some((line) => line.includes('Unhandled error'))).toBe(true);
    // Each request line names the client's network only (LOG_CLIENT_ADDRESS=truncated, the default).
    const requestLines = lines.filter((line) => line.includes('request completed'));
    expect(requestLines.length).toBeGreaterThan(5);
    for (const line of requestLines) expect(JSON.parse(line)).toMatchObject({ client: '127.0.0.0/24' });
  });

  it('has no e-mail address, name, phone or token of the journey in any line', () => {
    expect(lines.filter((line) => JOURNEY_DATA.some((pattern) => pattern.test(line)))).toEqual([]);
  });

  it('has no issued access token in any line, though it was validated, opened as /blackcard?token= and e-mailed', () => {
    expect(issuedToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(lines.some((line) => line.includes('"job":"invitation-email"'))).toBe(true);
    expect(lines.filter((line) => line.includes('/blackcard') && line.includes('request completed')).length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.includes(issuedToken) || line.includes(issuedToken.slice(0, 16)))).toEqual([]);
  });

  it('has no account sign-in token in any line, though it was e-mailed, opened as /account?token= and exchanged', () => {
    expect(accountToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(lines.some((line) => line.includes('"job":"account-link-email"'))).toBe(true);
    expect(lines.filter((line) => line.includes(accountToken) || line.includes(accountToken.slice(0, 16)))).toEqual([]);
  });

  it('has no unsubscribe token in any line, though the reminder was sent and its link opened and posted', () => {
    const [address, mac] = unsubscribeToken.split('.');
    expect(mac).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(lines.some((line) => line.includes('"job":"abandoned-checkout-email"') && line.includes('"outcome":"sent"'))).toBe(true);
    expect(lines.some((line) => line.includes('"path":"/api/unsubscribe"'))).toBe(true);
    expect(lines.filter((line) => line.includes(address) || line.includes(mac.slice(0, 16)))).toEqual([]);
  });

  it('has none of the data of a lead the database refused in any line', () => {
    expect(lines.filter((line) => FAULTY_DATA.some((pattern) => pattern.test(line)))).toEqual([]);
  });
});
