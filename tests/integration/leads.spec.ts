import Redis from 'ioredis';
import request from 'supertest';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { resetData, sleep, Stack, startStack, waitFor } from './support/stack';

const affiliate = new FakeAffiliateServer();
let stack: Stack;
const http = () => request(stack.url);

beforeAll(async () => {
  const redis = new Redis(process.env.REDIS_URL!);
  await redis.flushdb();
  await redis.quit();
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
      .send({ email: 'Jane.Doe@Example.com', name: 'Jane', phone: '+1 555 0100', referral: 'partner7', attribution: { utm_source: 'newsletter', gclid: 'g-1' } })
      .expect(201);
    expect(res.body).toEqual({ id: expect.any(String), existing: false });
    const [lead] = await stack.db.query('SELECT * FROM leads WHERE id = $1', [res.body.id]);
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
    const first = await http().post('/api/leads').send({ email: 'repeat@example.com', name: 'First' }).expect(201);
    await sleep(20);
    const second = await http().post('/api/leads').send({ email: 'REPEAT@example.com', phone: '123' }).expect(201);
    expect(second.body).toEqual({ id: first.body.id, existing: true });
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
    const results = await Promise.all(emails.map((email) => http().post('/api/leads').send({ email }).expect(201)));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.filter((r) => r.body.existing === false)).toHaveLength(1);
    const [lead] = await stack.db.query('SELECT submission_count FROM leads');
    expect(lead.submission_count).toBe(5);
    expect((await stack.db.query('SELECT count(*)::int AS n FROM lead_submissions'))[0].n).toBe(5);
    expect((await stack.db.query('SELECT count(*)::int AS n FROM outbox'))[0].n).toBe(1);
  });

  it('stores a burst of distinct leads, each with its own id', async () => {
    const emails = Array.from({ length: 120 }, (_, i) => `burst-${i}@example.com`);
    const results = await Promise.all(emails.map((email) => http().post('/api/leads').send({ email, name: email }).expect(201)));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(120);
    const rows = await stack.db.query('SELECT id, email, name FROM leads');
    const byId = new Map(rows.map((r: { id: string; email: string; name: string }) => [r.id, r]));
    results.forEach((r, i) => expect(byId.get(r.body.id)).toMatchObject({ email: emails[i], name: emails[i] }));
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
    const res = await http().post('/api/leads').send(body as object).expect(400);
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

describe('lead attribution job', () => {
  it('reaches the affiliate service exactly once with the lead, key and tracking id', async () => {
    const res = await http()
      .post('/api/leads')
      .set('Cookie', '_fprom_tid=tid-0123456789abcdefghijkl')
      .send({ email: 'referred@example.com', referral: 'partner7' })
      .expect(201);
    await waitFor(() => affiliate.signups().length === 1, 'the affiliate call');
    await waitFor(async () => (await stack.db.query('SELECT completed_at FROM outbox'))[0].completed_at, 'outbox completion');
    await sleep(500);
    expect(affiliate.signups()).toHaveLength(1);
    const [call] = affiliate.signups();
    expect(call.apiKey).toBe('test-key');
    expect(call.idempotencyKey).toBe(`affiliate-signup:${res.body.id}`);
    expect(call.params).toEqual({ email: 'referred@example.com', uid: res.body.id, tid: 'tid-0123456789abcdefghijkl', ref_id: 'partner7' });
    const [lead] = await stack.db.query('SELECT affiliate_status FROM leads');
    expect(lead.affiliate_status).toBe('sent');
  });

  it('retries a failing affiliate service with the same idempotency key and records one success', async () => {
    affiliate.failNextRequests(2);
    const res = await http().post('/api/leads').send({ email: 'flaky@example.com', referral: 'partner7' }).expect(201);
    await waitFor(() => affiliate.signups().length === 1, 'the affiliate call after retries');
    await waitFor(async () => (await stack.db.query(`SELECT affiliate_status FROM leads`))[0].affiliate_status === 'sent', 'status sent');
    await sleep(500);
    expect(affiliate.signups()).toHaveLength(1);
    expect(affiliate.signups()[0].idempotencyKey).toBe(`affiliate-signup:${res.body.id}`);
    const [ledger] = await stack.db.query(`SELECT count(*)::int AS n FROM side_effects WHERE kind = 'affiliate-signup'`);
    expect(ledger.n).toBe(1);
  });

  it('does not call the affiliate again when the same lead job is delivered twice', async () => {
    const res = await http().post('/api/leads').send({ email: 'twice@example.com', referral: 'partner7' }).expect(201);
    await waitFor(() => affiliate.signups().length === 1, 'first delivery');
    // A re-delivery under another job id (as after Redis lost the completed job) must be a no-op.
    const { JobProducer } = await import('../../backend/src/shared/queue/job-producer');
    await stack.api!.get(JobProducer).enqueue([{ jobId: 'manual-redelivery', job: { name: 'lead-attribution', data: { leadId: res.body.id } } }]);
    await sleep(1000);
    expect(affiliate.signups()).toHaveLength(1);
  });

  it('records "skipped: no referral" for an organic lead and calls nobody', async () => {
    await http().post('/api/leads').send({ email: 'organic@example.com' }).expect(201);
    await waitFor(async () => (await stack.db.query(`SELECT affiliate_status FROM leads`))[0].affiliate_status, 'a status');
    expect((await stack.db.query(`SELECT affiliate_status FROM leads`))[0].affiliate_status).toBe('skipped: no referral');
    expect(affiliate.signups()).toHaveLength(0);
  });
});
