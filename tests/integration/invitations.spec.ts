import Redis from 'ioredis';
import request from 'supertest';
import { createHash } from 'node:crypto';
import { site } from '@contracts/site/site';
import { SmtpSink } from '../fakes/smtp-sink';
import { postSimultaneously } from './support/simultaneous';
import { flushRedis, outboxDrained, resetData, settleOutbox, sleep, Stack, startStack, waitFor } from './support/stack';
import { doorSummary, onceEach } from '../fakes/exactly-once';

/**
 * The invitation gate with instant delivery: the real API and worker, e-mail to a loopback SMTP
 * sink. Tokens are issued, stored as hashes only, validated, expired; one e-mail per invitation.
 */
const smtp = new SmtpSink();
let stack: Stack;
const http = () => request(stack.url);
const count = async (sql: string, params: unknown[] = []): Promise<number> =>
  (await stack.db.query(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const LINK = /(https?:\/\/[^\s"<>]+\/blackcard\?token=([A-Za-z0-9_-]+))/;

async function resetAll(): Promise<void> {
  await settleOutbox(stack.db);
  await resetData(stack.db);
  await stack.db.query('TRUNCATE invitations CASCADE');
  smtp.reset();
}

/** Every text, varchar and jsonb column of every table, as `table.column`, where `value` occurs. */
async function placesHolding(value: string): Promise<string[]> {
  const columns: Array<{ table_name: string; column_name: string }> = await stack.db.query(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb', 'json')`,
  );
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    const n = await count(`"${table_name}" WHERE strpos("${column_name}"::text, $1) > 0`, [value]);
    if (n > 0) found.push(`${table_name}.${column_name}`);
  }
  return found;
}

beforeAll(async () => {
  await flushRedis();
  await smtp.start();
  stack = await startStack({
    SMTP_URL: smtp.url,
    INVITATION_DELIVERY: 'instant',
    INVITATION_RESEND_WINDOW_MS: '600000',
    RATE_LIMIT_TOKEN_CHECKS: '10000',
  });
});
afterAll(async () => {
  await stack?.stop();
  await smtp.stop();
});
beforeEach(resetAll);

describe('POST /api/invitation-gate: validation', () => {
  const valid = { name: 'Jane Doe', email: 'jane@example.com' };

  it.each([
    ['a one-letter name', { ...valid, name: 'J' }, 'Please enter your full name'],
    ['a name of one letter and spaces', { ...valid, name: '  J  ' }, 'Please enter your full name'],
    ['no name', { email: valid.email }, 'Please enter your full name'],
    ['a name that is a number', { ...valid, name: 42 }, 'Please enter your full name'],
    ['an invalid e-mail', { ...valid, email: 'jane@' }, 'Please enter a valid email address'],
    ['no e-mail', { name: valid.name }, 'Please enter a valid email address'],
    ['an e-mail that is an object', { ...valid, email: { $ne: '' } }, 'Please enter a valid email address'],
    [
      'a null byte in the name',
      { ...valid, name: 'Jane\u0000Doe' },
      'name must not contain control characters (such as line breaks or null bytes)',
    ],
    [
      'a line break in invitedBy',
      { ...valid, invitedBy: 'Sam\nBcc: x@example.com' },
      'invitedBy must not contain control characters (such as line breaks or null bytes)',
    ],
    ['a phone that is a number', { ...valid, phone: 5550100 }, 'phone must be text'],
    ['an unknown field', { ...valid, admin: true }, 'Unknown field "admin" is not allowed'],
  ])('refuses %s with 400 and a readable message', async (_case, body, message) => {
    const res = await http().post('/api/invitation-gate').send(body).expect(400);
    expect(res.body.message).toBe(message);
    expect(await count('invitations')).toBe(0);
  });

  it('accepts phone and invitedBy as optional free text', async () => {
    await http()
      .post('/api/invitation-gate')
      .send({ ...valid, phone: 'call me maybe', invitedBy: 'Sam (my coach) — thanks!' })
      .expect(201);
    const [row] = await stack.db.query('SELECT phone, invited_by FROM invitations');
    expect(row).toEqual({ phone: 'call me maybe', invited_by: 'Sam (my coach) — thanks!' });
  });
});

describe('instant delivery', () => {
  it('answers 201 with a token that validates to the invitee, and sets verified_at the first time', async () => {
    const res = await http()
      .post('/api/invitation-gate')
      .send({ name: ' Jane Doe ', email: 'Jane.Doe@Example.com', phone: '+1 555 0100', invitedBy: 'Sam', referral: 'partner7' })
      .expect(201);
    const token: string = res.body.accessToken;
    expect(Object.keys(res.body)).toEqual(['accessToken']);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    expect((await stack.db.query('SELECT verified_at FROM invitations'))[0].verified_at).toBeNull();
    const check = await http().get(`/api/validate-token/${token}`).expect(200);
    expect(check.body).toEqual({ email: 'Jane.Doe@Example.com', name: 'Jane Doe' });
    expect(check.headers['cache-control']).toBe('no-store');
    const [{ verified_at: first }] = await stack.db.query('SELECT verified_at FROM invitations');
    expect(first).toBeInstanceOf(Date);
    await sleep(20);
    await http().get(`/api/validate-token/${token}`).expect(200);
    expect((await stack.db.query('SELECT verified_at FROM invitations'))[0].verified_at).toEqual(first);

    const [row] = await stack.db.query('SELECT * FROM invitations');
    expect(row).toMatchObject({
      email_normalized: 'jane.doe@example.com',
      phone: '+1 555 0100',
      invited_by: 'Sam',
      referral: 'partner7',
      delivery: 'instant',
      tokens_issued: 1,
    });
  });

  it('stores the token as its SHA-256 only: the plain token is in no column of any table, nor in the queued job', async () => {
    const res = await http().post('/api/invitation-gate').send({ name: 'Hidden Token', email: 'hidden@example.com' }).expect(201);
    const token: string = res.body.accessToken;
    await waitFor(() => smtp.messages.length === 1, 'the invitation e-mail');
    await waitFor(async () => (await count('outbox WHERE completed_at IS NOT NULL')) === 1, 'the job to complete');

    expect(await placesHolding(token)).toEqual([]);
    expect(await placesHolding(sha256(token))).toEqual(['invitation_tokens.token_hash']);
    const [outbox] = await stack.db.query('SELECT payload FROM outbox');
    expect(outbox.payload).toMatchObject({ issue: 1, sealedToken: expect.stringMatching(/^v1\./) });

    const redis = new Redis(process.env.REDIS_URL!);
    try {
      const keys = await redis.keys('bull:invitations:*');
      const values = await Promise.all(
        keys.map(async (key) => ((await redis.type(key)) === 'hash' ? JSON.stringify(await redis.hgetall(key)) : '')),
      );
      expect(values.some((v) => v.includes('sealedToken'))).toBe(true);
      expect(values.filter((v) => v.includes(token))).toEqual([]);
    } finally {
      await redis.quit();
    }
  });

  it('answers 404 for an expired token, and for unknown and malformed ones', async () => {
    const res = await http().post('/api/invitation-gate').send({ name: 'Soon Gone', email: 'expiring@example.com' }).expect(201);
    const token: string = res.body.accessToken;
    await http().get(`/api/validate-token/${token}`).expect(200);
    const [row] = await stack.db.query('SELECT expires_at, created_at FROM invitation_tokens');
    expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBeGreaterThan(29.9 * 24 * 3600 * 1000);

    await stack.db.query(`UPDATE invitation_tokens SET expires_at = now() - interval '1 second'`);
    const expired = await http().get(`/api/validate-token/${token}`).expect(404);
    expect(expired.body.message).toBe('This access link is invalid or has expired. Please request a new invitation.');

    const unknown = 'A'.repeat(43);
    await http().get(`/api/validate-token/${unknown}`).expect(404);
    for (const malformed of ['short', `${token}x`, `${token.slice(0, 42)}=`, '%00', `${token.slice(0, 40)}%2F..`]) {
      const answer = await http().get(`/api/validate-token/${malformed}`);
      expect([malformed, answer.status]).toEqual([malformed, 404]);
    }
  });
});

describe('the invitation e-mail', () => {
  it('is delivered once per invitation, HTML and text, with a link whose token validates', async () => {
    const res = await http().post('/api/invitation-gate').send({ name: 'Mail <Reader>', email: 'reader@example.com' }).expect(201);
    await waitFor(() => smtp.messages.length === 1, 'the invitation e-mail');
    await outboxDrained(stack.db);
    expect(doorSummary(smtp.deliveriesAtDoor())).toEqual(onceEach(1));

    const [mail] = smtp.messages;
    expect(mail.envelope.to).toEqual(['reader@example.com']);
    expect(mail.subject).toBe(`Your private invitation to ${site.brand.programName}`);
    const [, link, linkToken] = LINK.exec(mail.text ?? '') ?? [];
    expect(link.startsWith(`${process.env.PUBLIC_URL}/blackcard?token=`)).toBe(true);
    expect(mail.html).toContain(`href="${link}"`);
    // Only a first name as typed reaches the e-mail, never the rest of the free text.
    expect(mail.text).toContain('Hi Mail,');
    expect(mail.html).not.toContain('Reader');
    // Instant delivery mails the token it answered with.
    expect(linkToken).toBe(res.body.accessToken);
    const check = await http().get(`/api/validate-token/${linkToken}`).expect(200);
    expect(check.body).toEqual({ email: 'reader@example.com', name: 'Mail <Reader>' });

    const [row] = await stack.db.query('SELECT id, email_status, last_emailed_at FROM invitations');
    expect(row.email_status).toBe('sent');
    expect(row.last_emailed_at).toBeInstanceOf(Date);
    expect(mail.messageId).toBe(`<invitation-email.${row.id}.1@${site.brand.sender.address.split('@')[1]}>`);
    const [effect] = await stack.db.query('SELECT key, status FROM side_effects');
    expect(effect).toEqual({ key: `invitation-email:${row.id}:1`, status: 'done' });
  });

  it('is not sent again for a resubmission within the window, which updates the one invitation and gets a fresh token', async () => {
    const first = await http()
      .post('/api/invitation-gate')
      .send({ name: 'First Try', email: 'again@example.com', invitedBy: 'Alex', referral: 'partner7' })
      .expect(201);
    await waitFor(() => smtp.messages.length === 1, 'the invitation e-mail');
    const second = await http()
      .post('/api/invitation-gate')
      .send({ name: 'Second Try', email: 'AGAIN@example.com', invitedBy: 'Sam', referral: 'other9' })
      .expect(201);
    await outboxDrained(stack.db);

    expect(doorSummary(smtp.deliveriesAtDoor())).toEqual(onceEach(1));
    expect(await count('invitations')).toBe(1);
    expect(await count('invitation_submissions')).toBe(2);
    expect(await count('outbox')).toBe(1);
    // A resubmission never overwrites the invitee's name, inviter or referral.
    const [row] = await stack.db.query('SELECT name, email, invited_by, referral, submission_count, tokens_issued FROM invitations');
    expect(row).toEqual({
      name: 'First Try',
      email: 'AGAIN@example.com',
      invited_by: 'Alex',
      referral: 'partner7',
      submission_count: 2,
      tokens_issued: 2,
    });
    // The e-mailed link keeps working next to the fresh token.
    expect(second.body.accessToken).not.toBe(first.body.accessToken);
    const [, , mailed] = LINK.exec(smtp.messages[0].text ?? '') ?? [];
    await http().get(`/api/validate-token/${mailed}`).expect(200);
    const fresh = await http().get(`/api/validate-token/${second.body.accessToken}`).expect(200);
    expect(fresh.body).toEqual({ email: 'AGAIN@example.com', name: 'First Try' });
  });

  it('is sent once for simultaneous first submissions of one address', async () => {
    const answers = await postSimultaneously(
      stack.url,
      '/api/invitation-gate',
      Array.from({ length: 8 }, (_, i) => ({ name: `Racer ${i}`, email: 'race@example.com' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    await waitFor(() => smtp.messages.length >= 1, 'the invitation e-mail');
    await outboxDrained(stack.db);
    expect(doorSummary(smtp.deliveriesAtDoor())).toEqual(onceEach(1));
    expect(await count('invitations')).toBe(1);
    expect(await count('outbox')).toBe(1);
    expect(await count('invitation_tokens')).toBe(8);
  });
});
