import request from 'supertest';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { outboxDrained, resetData, Stack, startStack, waitFor } from './support/stack';

describe('lead attribution without an affiliate API key', () => {
  const affiliate = new FakeAffiliateServer();
  let stack: Stack;

  beforeAll(async () => {
    await affiliate.start();
    stack = await startStack({ AFFILIATE_API_URL: affiliate.url, AFFILIATE_API_KEY: '' });
    await resetData(stack.db);
  });
  afterAll(async () => {
    await stack?.stop();
    await affiliate.stop();
  });

  it('records "skipped: not configured" instead of pretending it was sent', async () => {
    await request(stack.url).post('/api/leads').send({ email: 'nokey@example.com', referral: 'partner7' }).expect(201);
    const status = await waitFor(
      async () => (await stack.db.query(`SELECT affiliate_status FROM leads`))[0]?.affiliate_status as string | null,
      'the job outcome',
    );
    expect(status).toBe('skipped: not configured');
    await outboxDrained(stack.db);
    expect(affiliate.attempts).toHaveLength(0);
    const [ledger] = await stack.db.query(`SELECT count(*)::int AS n FROM side_effects`);
    expect(ledger.n).toBe(0);
  });
});

describe('rate limit on public writes', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ RATE_LIMIT_WRITES: '3' }, { worker: false });
    await resetData(stack.db);
  });
  afterAll(() => stack?.stop());

  it('answers 429 with a readable message once a client exceeds the limit', async () => {
    const http = request(stack.url);
    for (let i = 0; i < 3; i++)
      await http
        .post('/api/leads')
        .send({ email: `limit${i}@example.com` })
        .expect(201);
    const res = await http.post('/api/leads').send({ email: 'limit-over@example.com' }).expect(429);
    expect(res.body.message).toMatch(/Too many requests/);
  });
});
