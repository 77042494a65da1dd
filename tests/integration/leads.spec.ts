import request from 'supertest';
import { normalizeEmail } from '@contracts/email';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { postSimultaneously } from './support/simultaneous';
import { flushRedis, outboxDrained, redeliverSignup, resetData, sleep, Stack, startStack, waitFor } from './support/stack';

const affiliate = new FakeAffiliateServer();
let stack: Stack;
const http = () => request(stack.url);
const leadIdOf = async (email: string): Promise<string> =>
  (await stack.db.query('SELECT id FROM leads WHERE email_normalized = $1', [normalizeEmail(email)]))[0].id;
const count = async (table: string): Promise<number> => (await stack.db.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n;

beforeAll(async () => {
  await flushRedis();
  await affiliate.start();
  stack = await startStack({ AFFILIATE_API_URL: affiliate.url, AFFILIATE_API_KEY: 'test-key' });
});
afterAll(async () => {
  await stack?.stop();
  await affiliate.stop();
});
beforeEach(async () => {
  await resetData(stack.db);
  affiliate.reset();
});

describe('POST /api/leads', () => {
  it('stores a valid lead with its attribution and answers 201', async () => {
    const res = await http()
      .post('/api/leads')
      .set('Cookie', '_ga=GA1.1.12345.67890; _fbp=fb.1.1700000000.42; _fprom_tid=track-abcdefghijklmnopqrstu')
      .send({
        email: 'Jane.Doe@Example.com',
        name: 'Jane',
        phone: '+1 555 0100',
        referral: 'partner7',
        attribution: { utm_source: 'newsletter', gclid: 'g-1' },
      })
      .expect(201);
    expect(res.body).toEqual({ received: true });
    const [lead] = await stack.db.query('SELECT * FROM leads');
    expect(lead).toMatchObject({
      email: 'Jane.Doe@Example.com',
      email_normalized: 'jane.doe@example.com',
      name: 'Jane',
      phone: '+1 555 0100',
      referral: 'partner7',
      submission_count: 1,
    });
    expect(lead.attribution).toEqual({
      utm_source: 'newsletter',
      gclid: 'g-1',
      ga_client_id: '12345.67890',
      fbp: 'fb.1.1700000000.42',
      tid: 'track-abcdefghijklmnopqrstu',
    });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('keeps one lead per e-mail (case-insensitive) and records every submission time', async () => {
    const first = await http().post('/api/leads').send({ email: 'repeat@example.com', name: 'First', referral: 'partner7' }).expect(201);
    await sleep(20);
    const second = await http().post('/api/leads').send({ email: 'REPEAT@example.com', phone: '123' }).expect(201);
    // A known address gets exactly the answer a new one gets: the API does not reveal who is on file.
    expect(second.body).toEqual(first.body);
    expect(second.body).toEqual({ received: true });
    const leads = await stack.db.query('SELECT * FROM leads');
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ name: 'First', phone: '123', submission_count: 2 });
    expect(new Date(leads[0].last_submitted_at).getTime()).toBeGreaterThan(new Date(leads[0].first_submitted_at).getTime());
    const submissions = await stack.db.query('SELECT submitted_at FROM lead_submissions ORDER BY submitted_at');
    expect(submissions).toHaveLength(2);
    const outbox = await stack.db.query('SELECT * FROM outbox');
    expect(outbox).toHaveLength(1);
  });

  it('handles concurrent submissions of one e-mail (batched together) without losing any', async () => {
    const emails = ['same@example.com', 'SAME@example.com', 'Same@Example.com', 'same@EXAMPLE.com', 'same@example.COM'];
    const results = await Promise.all(emails.map((email) => http().post('/api/leads').send({ email, referral: 'partner7' }).expect(201)));
    results.forEach((r) => expect(r.body).toEqual({ received: true }));
    const leads = await stack.db.query('SELECT submission_count FROM leads');
    expect(leads).toEqual([{ submission_count: 5 }]);
    expect((await stack.db.query('SELECT count(*)::int AS n FROM lead_submissions'))[0].n).toBe(5);
    expect((await stack.db.query('SELECT count(*)::int AS n FROM outbox'))[0].n).toBe(1);
  });

  it('stores a burst of distinct leads, each with its own data', async () => {
    const emails = Array.from({ length: 120 }, (_, i) => `burst-${i}@example.com`);
    await Promise.all(emails.map((email) => http().post('/api/leads').send({ email, name: email, referral: 'partner7' }).expect(201)));
    const rows: Array<{ email: string; name: string }> = await stack.db.query('SELECT email, name FROM leads ORDER BY email');
    expect(rows).toEqual([...emails].sort().map((email) => ({ email, name: email })));
    expect(await count('outbox')).toBe(120);
  });

  it.each([
    ['name', { name: 'Mallory\u0000' }],
    ['attribution', { attribution: { utm_source: 'ads\u0000' } }],
  ])('refuses a NUL in %s with 400 and still stores the 20 valid leads posted with it', async (field, poison) => {
    const valid = Array.from({ length: 20 }, (_, i) => ({
      email: `valid-${i}@example.com`,
      name: `Valid ${i}`,
      attribution: { utm_source: 'ads' },
    }));
    const bad = { email: 'mallory@example.com', ...poison };
    const responses = await postSimultaneously(stack.url, '/api/leads', [...valid.slice(0, 10), bad, ...valid.slice(10)]);
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses[10]).toBe(400);
    expect(responses[10].body.message).toMatch(
      new RegExp(`^${field === 'name' ? 'name' : 'attribution\\.utm_source'} must not contain control characters`),
    );
    expect(await count('leads')).toBe(20);
    expect(await count('lead_submissions')).toBe(20);
  });

  it.each([
    ['a line break in phone', { phone: '123\n456' }, 'phone must not contain control characters (such as line breaks or null bytes)'],
    [
      'an escape character in referral',
      { referral: '\u001b[31mred' },
      'referral must not contain control characters (such as line breaks or null bytes)',
    ],
    [
      'a lone surrogate in landing_path',
      { attribution: { landing_path: '/\ud800' } },
      'Field "attribution.landing_path" is not valid text (it has a broken character)',
    ],
  ])('refuses %s with a readable 400', async (_label, extra, message) => {
    const res = await http()
      .post('/api/leads')
      .send({ email: 'ctl@example.com', ...extra })
      .expect(400);
    expect(res.body.message).toBe(message);
    expect(await count('leads')).toBe(0);
  });

  it('drops a cookie value that would not store instead of failing the lead', async () => {
    await http().post('/api/leads').set('Cookie', '_fprom_tid=abc%00def; _fbp=fb.1.2.3').send({ email: 'cookie@example.com' }).expect(201);
    const [lead] = await stack.db.query('SELECT attribution FROM leads');
    expect(lead.attribution).toEqual({ fbp: 'fb.1.2.3' });
  });

  it('stores a non-ASCII address once, however it is cased, and answers 201 every time', async () => {
    await http().post('/api/leads').send({ email: 'Äbc@example.com', name: 'Ä', referral: 'partner7' }).expect(201, { received: true });
    await http().post('/api/leads').send({ email: 'Äbc@example.com' }).expect(201, { received: true });
    await http().post('/api/leads').send({ email: 'äBC@example.com' }).expect(201, { received: true });
    // Decomposed: "A" followed by a combining diaeresis is the same address to a person.
    await http().post('/api/leads').send({ email: 'A\u0308bc@example.com' }).expect(201, { received: true });
    const leads = await stack.db.query('SELECT email, email_normalized, submission_count FROM leads');
    expect(leads).toEqual([{ email: 'Äbc@example.com', email_normalized: 'äbc@example.com', submission_count: 4 }]);
    expect(await count('outbox')).toBe(1);
  });

  it('stores concurrent non-ASCII submissions of one address once', async () => {
    const emails = ['Ölaf@example.com', 'ölaf@example.com', 'ÖLAF@EXAMPLE.COM', 'Ölaf@example.com'];
    const responses = await Promise.all(emails.map((email) => http().post('/api/leads').send({ email, referral: 'partner7' })));
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(await stack.db.query('SELECT email_normalized, submission_count FROM leads')).toEqual([
      { email_normalized: 'ölaf@example.com', submission_count: 4 },
    ]);
    expect(await count('outbox')).toBe(1);
  });

  it.each([
    ['an invalid e-mail', { email: 'not-an-email' }, 'Please enter a valid email address'],
    ['a missing e-mail', { name: 'No Email' }, 'Please enter a valid email address'],
    ['a number as e-mail', { email: 42 }, 'Please enter a valid email address'],
    ['a number as name', { email: 'a@example.com', name: 123 }, 'name must be text'],
    ['an object as phone', { email: 'a@example.com', phone: { n: 1 } }, 'phone must be text'],
    ['an unknown field', { email: 'a@example.com', isAdmin: true }, 'Unknown field "isAdmin" is not allowed'],
    ['an unknown nested field', { email: 'a@example.com', attribution: { evil: 'x' } }, 'Unknown field "attribution.evil" is not allowed'],
    ['a 201-character name', { email: 'a@example.com', name: 'n'.repeat(201) }, 'name must be at most 200 characters'],
    ['an array body', [{ email: 'a@example.com' }], 'The request body must be a JSON object'],
  ])('rejects %s with a 400 and a readable message', async (_label, body, message) => {
    const res = await http()
      .post('/api/leads')
      .send(body as object)
      .expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message });
    expect((await stack.db.query('SELECT count(*)::int AS n FROM leads'))[0].n).toBe(0);
  });

  it('rejects malformed JSON with 400', async () => {
    const res = await http().post('/api/leads').set('Content-Type', 'application/json').send('{"email": "a@b.co",').expect(400);
    expect(res.body.message).toMatch(/JSON/);
  });

  it('rejects a body that is not JSON with a 4xx', async () => {
    const res = await http().post('/api/leads').set('Content-Type', 'text/plain').send('email=a@b.co');
    expect([400, 415]).toContain(res.status);
    expect(typeof res.body.message).toBe('string');
  });

  it('rejects a 1 MB body with 413 before reading it all', async () => {
    const res = await http()
      .post('/api/leads')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ email: 'big@example.com', name: 'x'.repeat(1024 * 1024) }))
      .expect(413);
    expect(res.body).toMatchObject({ statusCode: 413, message: 'The request body is too large' });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await http().get('/api/no-such-thing').expect(404);
    expect(res.body.statusCode).toBe(404);
  });
});

describe('a lead the database refuses after validation', () => {
  // A real database-level failure validation cannot foresee: a trigger refuses two addresses,
  // one as a server fault (P0001), one as bad data (class 22).
  beforeAll(async () => {
    await stack.db.query(`
      CREATE FUNCTION refuse_test_leads() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.email_normalized = 'fault@example.com' THEN RAISE EXCEPTION 'refused for the test'; END IF;
        IF NEW.email_normalized = 'unstorable@example.com' THEN RAISE EXCEPTION 'refused for the test' USING ERRCODE = '22023'; END IF;
        RETURN NEW;
      END $$`);
    await stack.db.query(`CREATE TRIGGER refuse_test_leads BEFORE INSERT ON leads FOR EACH ROW EXECUTE FUNCTION refuse_test_leads()`);
  });
  afterAll(async () => {
    await stack.db.query('DROP TRIGGER IF EXISTS refuse_test_leads ON leads');
    await stack.db.query('DROP FUNCTION IF EXISTS refuse_test_leads()');
  });

  it.each([
    ['fault@example.com', 500],
    ['unstorable@example.com', 400],
  ])('fails only %s (%i) and stores the others of its batch', async (refused, status) => {
    const emails = Array.from({ length: 12 }, (_, i) => `neighbour-${i}@example.com`);
    const responses = await postSimultaneously(
      stack.url,
      '/api/leads',
      [...emails.slice(0, 6), refused, ...emails.slice(6)].map((email) => ({ email, referral: 'partner7' })),
    );
    expect(responses.map((r) => r.status)).toEqual([...Array(6).fill(201), status, ...Array(6).fill(201)]);
    expect(responses[6].body.message).toMatch(status === 400 ? /cannot be stored/ : /went wrong on our side/);
    const stored: Array<{ email: string }> = await stack.db.query('SELECT email FROM leads ORDER BY email');
    expect(stored.map((r) => r.email)).toEqual([...emails].sort());
    expect(await count('lead_submissions')).toBe(12);
    expect(await count('outbox')).toBe(12);
  });
});

describe('lead attribution job', () => {
  it('reaches the affiliate service exactly once with the lead, key and tracking id', async () => {
    await http()
      .post('/api/leads')
      .set('Cookie', '_fprom_tid=tid-0123456789abcdefghijkl')
      .send({ email: 'referred@example.com', referral: 'partner7' })
      .expect(201);
    await waitFor(() => affiliate.signups().length === 1, 'the affiliate call');
    await outboxDrained(stack.db);
    expect(exactlyOnceProblems(affiliate.signupsAtDoor(), ['referred@example.com'])).toEqual([]);
    expect(affiliate.signupAttempts()).toHaveLength(1);
    const [call] = affiliate.signups();
    expect(call.apiKey).toBe('test-key');
    const leadId = await leadIdOf('referred@example.com');
    expect(call.idempotencyKey).toBe(`affiliate-signup:${leadId}`);
    expect(call.params).toEqual({ email: 'referred@example.com', uid: leadId, tid: 'tid-0123456789abcdefghijkl', ref_id: 'partner7' });
    const [lead] = await stack.db.query('SELECT affiliate_status FROM leads');
    expect(lead.affiliate_status).toBe('sent');
  });

  it('retries a failing affiliate service with the same idempotency key and records one success', async () => {
    affiliate.failNextRequests(2);
    await http().post('/api/leads').send({ email: 'flaky@example.com', referral: 'partner7' }).expect(201);
    await waitFor(() => affiliate.signups().length === 1, 'the affiliate call after retries');
    await waitFor(async () => (await stack.db.query(`SELECT affiliate_status FROM leads`))[0].affiliate_status === 'sent', 'status sent');
    await outboxDrained(stack.db);
    // Two refused attempts, then one that was done; nothing after it, every one with the lead's key.
    const key = `affiliate-signup:${await leadIdOf('flaky@example.com')}`;
    expect(affiliate.signupAttempts().map((a) => [a.idempotencyKey, a.answer])).toEqual([
      [key, 'failed'],
      [key, 'failed'],
      [key, 'ok'],
    ]);
    expect(exactlyOnceProblems(affiliate.signupsAtDoor(), ['flaky@example.com'])).toEqual([]);
    const [ledger] = await stack.db.query(`SELECT count(*)::int AS n FROM side_effects WHERE kind = 'affiliate-signup'`);
    expect(ledger.n).toBe(1);
  });

  it('does not call the affiliate again when the same lead job is delivered twice', async () => {
    await http().post('/api/leads').send({ email: 'twice@example.com', referral: 'partner7' }).expect(201);
    await waitFor(() => affiliate.signups().length === 1, 'first delivery');
    // A re-delivery under another job id (as after Redis lost the completed job) must be a no-op.
    await redeliverSignup(stack, await leadIdOf('twice@example.com'));
    expect(affiliate.signupAttempts()).toHaveLength(1);
    expect(exactlyOnceProblems(affiliate.signupsAtDoor(), ['twice@example.com'])).toEqual([]);
  });

  it('stores an organic lead as "skipped: no referral", owes it no signup job and calls nobody', async () => {
    await http()
      .post('/api/leads')
      .send({ email: 'organic@example.com', attribution: { utm_source: 'news' } })
      .expect(201);
    // Recorded with the lead itself: nothing is left for a worker to decide.
    const [lead] = await stack.db.query(`SELECT affiliate_status, affiliate_recorded_at FROM leads`);
    expect(lead.affiliate_status).toBe('skipped: no referral');
    expect(lead.affiliate_recorded_at).not.toBeNull();
    expect(await stack.db.query(`SELECT job_name FROM outbox WHERE job_name = 'affiliate-signup'`)).toEqual([]);
    await outboxDrained(stack.db);
    expect(affiliate.signupAttempts()).toHaveLength(0);
  });

  it('owes the signup job of a lead whose only referral is the tracking cookie, and leaves its status to it', async () => {
    await http()
      .post('/api/leads')
      .set('Cookie', '_fprom_tid=track-abcdefghijklmnopqrstu')
      .send({ email: 'cookie@example.com' })
      .expect(201);
    expect(await stack.db.query(`SELECT affiliate_status FROM leads`)).toEqual([{ affiliate_status: null }]);
    await waitFor(() => affiliate.signups().length === 1, 'the affiliate call');
    await waitFor(async () => (await stack.db.query(`SELECT affiliate_status FROM leads`))[0].affiliate_status === 'sent', 'status sent');
  });
});
