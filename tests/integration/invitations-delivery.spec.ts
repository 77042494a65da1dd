import request from 'supertest';
import { SmtpSink } from '../fakes/smtp-sink';
import { flushRedis, outboxDrained, resetData, settleOutbox, Stack, startStack, waitFor } from './support/stack';
import { doorSummary, onceEach } from '../fakes/exactly-once';

/**
 * E-mail delivery of the invitation gate: no token in the answer, the link arrives by e-mail
 * (also when SMTP is down for a while, exactly once), a resend after the window, the token check
 * limit, and an unconfigured SMTP server.
 */
const smtp = new SmtpSink();
let stack: Stack;
const http = () => request(stack.url);
const LINK = /https?:\/\/[^\s"<>]+\/blackcard\?token=([A-Za-z0-9_-]+)/;
const TOKEN_CHECKS = 5;

async function reset(): Promise<void> {
  await settleOutbox(stack.db);
  await resetData(stack.db);
  await stack.db.query('TRUNCATE invitations CASCADE');
  smtp.reset();
}

async function emailStack(env: Record<string, string>): Promise<void> {
  await stack?.stop();
  stack = await startStack({
    SMTP_URL: smtp.url,
    INVITATION_DELIVERY: 'email',
    RATE_LIMIT_TOKEN_CHECKS: String(TOKEN_CHECKS),
    // SMTP stays down for several retries below; the job must outlast it.
    JOB_RETRY_HORIZON_S: '600',
    JOB_BACKOFF_MS: '100',
    ...env,
  });
  await reset();
}

beforeAll(async () => {
  await flushRedis();
  await smtp.start();
});
afterAll(async () => {
  await stack?.stop();
  await smtp.stop();
});

describe('INVITATION_DELIVERY=email', () => {
  beforeAll(() => emailStack({ INVITATION_RESEND_WINDOW_MS: '600000' }));
  beforeEach(reset);

  it('answers 201 {} without a token, and the e-mailed link validates', async () => {
    const res = await http().post('/api/invitation-gate').send({ name: 'Email Only', email: 'email.only@example.com' }).expect(201);
    expect(res.body).toEqual({});
    await waitFor(() => smtp.messages.length === 1, 'the invitation e-mail');
    const [, token] = LINK.exec(smtp.messages[0].text ?? '') ?? [];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const check = await http().get(`/api/validate-token/${token}`).expect(200);
    expect(check.body).toEqual({ email: 'email.only@example.com', name: 'Email Only' });
  });

  it('issues no token and sends nothing for a resubmission within the window', async () => {
    await http().post('/api/invitation-gate').send({ name: 'Twice Sent', email: 'twice@example.com' }).expect(201);
    await waitFor(() => smtp.messages.length === 1, 'the invitation e-mail');
    const again = await http().post('/api/invitation-gate').send({ name: 'Twice Sent', email: 'twice@example.com' }).expect(201);
    expect(again.body).toEqual({});
    await outboxDrained(stack.db);
    expect(doorSummary(smtp.deliveriesAtDoor())).toEqual(onceEach(1));
    expect((await stack.db.query('SELECT count(*)::int AS n FROM invitation_tokens'))[0].n).toBe(1);
  });

  it('delivers the e-mail once when the SMTP server is down at first and comes back', async () => {
    await smtp.stop();
    try {
      await http().post('/api/invitation-gate').send({ name: 'Patient Reader', email: 'patient@example.com' }).expect(201);
      await waitFor(
        async () => (await stack.db.query(`SELECT attempts FROM side_effects WHERE kind = 'invitation-email'`))[0]?.attempts >= 3,
        'three refused attempts',
      );
      const [pending] = await stack.db.query(`SELECT status FROM side_effects`);
      expect(pending.status).toBe('claimed');
      expect((await stack.db.query('SELECT email_status FROM invitations'))[0].email_status).toBeNull();
    } finally {
      await smtp.start();
    }
    await waitFor(() => smtp.messages.length === 1, 'the invitation e-mail after SMTP is back', 30_000);
    await waitFor(async () => (await stack.db.query(`SELECT status FROM side_effects`))[0].status === 'done', 'the ledger to record it');
    await outboxDrained(stack.db);
    expect(doorSummary(smtp.deliveriesAtDoor())).toEqual(onceEach(1));
    const [, token] = LINK.exec(smtp.messages[0].text ?? '') ?? [];
    await http().get(`/api/validate-token/${token}`).expect(200);
    const [row] = await stack.db.query('SELECT email_status, last_emailed_at FROM invitations');
    expect(row.email_status).toBe('sent');
    expect(row.last_emailed_at).toBeInstanceOf(Date);
  });
});

describe('token checks', () => {
  // A fresh API: the limit counts every check of a client, found or not.
  beforeAll(() => emailStack({ INVITATION_RESEND_WINDOW_MS: '600000' }));

  it(`limits token checks to ${TOKEN_CHECKS} per client and window with a readable 429`, async () => {
    for (let i = 0; i < TOKEN_CHECKS; i++)
      await http()
        .get(`/api/validate-token/${'B'.repeat(43)}`)
        .expect(404);
    const limited = await http()
      .get(`/api/validate-token/${'C'.repeat(43)}`)
      .expect(429);
    expect(limited.body.message).toBe('Too many access link checks from this device. Please wait a minute and try again.');
  });
});

describe('after the resend window', () => {
  beforeAll(() => emailStack({ INVITATION_RESEND_WINDOW_MS: '0' }));

  it('sends a new e-mail with a new token, and the earlier link keeps working', async () => {
    await http().post('/api/invitation-gate').send({ name: 'Came Back', email: 'back@example.com' }).expect(201);
    await waitFor(() => smtp.messages.length === 1, 'the first invitation e-mail');
    await http().post('/api/invitation-gate').send({ name: 'Came Back', email: 'back@example.com' }).expect(201);
    await waitFor(() => smtp.messages.length === 2, 'the second invitation e-mail');
    const [first, second] = smtp.messages.map((m) => LINK.exec(m.text ?? '')?.[1]);
    expect(first).not.toBe(second);
    await http().get(`/api/validate-token/${first}`).expect(200);
    await http().get(`/api/validate-token/${second}`).expect(200);
    const keys = (await stack.db.query(`SELECT key FROM side_effects ORDER BY key`)).map((r: { key: string }) =>
      r.key.replace(/:[0-9a-f-]{36}:/, ':<id>:'),
    );
    expect(keys).toEqual(['invitation-email:<id>:1', 'invitation-email:<id>:2']);
  });
});

describe('without SMTP_URL', () => {
  beforeAll(() => emailStack({ SMTP_URL: '', INVITATION_RESEND_WINDOW_MS: '600000' }));

  it('records the e-mail as skipped: not configured', async () => {
    await http().post('/api/invitation-gate').send({ name: 'No Mail', email: 'nomail@example.com' }).expect(201);
    await waitFor(async () => (await stack.db.query('SELECT email_status FROM invitations'))[0]?.email_status, 'the e-mail outcome');
    expect((await stack.db.query('SELECT email_status FROM invitations'))[0].email_status).toBe('skipped: not configured');
    expect(smtp.messages).toHaveLength(0);
  });
});
