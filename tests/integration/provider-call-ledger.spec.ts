import request from 'supertest';
import { ProviderCallLedger } from '../../worker/src/ledger/provider-call-ledger';
import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { flushRedis, outboxDrained, redeliverSignup, resetData, Stack, startStack, waitFor } from './support/stack';

/**
 * The claim-first side-effect ledger, end to end: API → outbox → relay → BullMQ → worker →
 * ledger → the affiliate fake, which records every attempt with its Idempotency-Key.
 */
describe('side-effect ledger (affiliate signup)', () => {
  const affiliate = new FakeAffiliateServer();
  let stack: Stack;
  const http = () => request(stack.url);

  beforeAll(async () => {
    await flushRedis();
    await affiliate.start();
    stack = await startStack({ AFFILIATE_API_URL: affiliate.url, AFFILIATE_API_KEY: 'ledger-key' });
  });
  afterAll(async () => {
    await stack?.stop();
    await affiliate.stop();
  });
  beforeEach(async () => {
    await resetData(stack.db);
    affiliate.reset();
  });
  afterEach(() => jest.restoreAllMocks());

  async function referredLead(email: string): Promise<string> {
    await http().post('/api/leads').send({ email, referral: 'partner7' }).expect(201);
    const [lead] = await stack.db.query(`SELECT id FROM leads WHERE email = $1`, [email]);
    return lead.id;
  }

  const statusOf = async (leadId: string): Promise<string | null> =>
    (await stack.db.query(`SELECT affiliate_status FROM leads WHERE id = $1`, [leadId]))[0]?.affiliate_status ?? null;

  const ledgerRow = async (leadId: string) =>
    (
      await stack.db.query(`SELECT status, attempts, detail, finished_at FROM side_effects WHERE key = $1`, [`affiliate-signup:${leadId}`])
    )[0];

  async function settled(leadId: string, status = 'sent'): Promise<void> {
    await waitFor(async () => (await statusOf(leadId)) === status, `affiliate status "${status}"`);
    await outboxDrained(stack.db);
  }

  it("resumes a crash between the provider's answer and the record with the same key: one effective call", async () => {
    // The provider acts on the first call; then the record step fails, as when the worker dies there.
    const record = jest
      .spyOn(stack.worker!.get(ProviderCallLedger), 'record')
      .mockRejectedValueOnce(new Error('worker died before recording'));
    const leadId = await referredLead('crash@example.com');
    await settled(leadId);

    expect(record).toHaveBeenCalledTimes(2);
    const attempts = affiliate.signupAttempts();
    expect(attempts.map((a) => [a.idempotencyKey, a.answer])).toEqual([
      [`affiliate-signup:${leadId}`, 'ok'],
      [`affiliate-signup:${leadId}`, 'duplicate'],
    ]);
    expect(affiliate.signups()).toHaveLength(1);
    expect(await ledgerRow(leadId)).toMatchObject({ status: 'done', attempts: 2, detail: { outcome: 'duplicate', status: 409 } });
  });

  it('counts a "duplicate" answer for a response that never arrived as done', async () => {
    affiliate.loseNextResponses(1);
    const leadId = await referredLead('lost@example.com');
    await settled(leadId);

    expect(affiliate.signupAttempts().map((a) => [a.idempotencyKey, a.answer])).toEqual([
      [`affiliate-signup:${leadId}`, 'lost'],
      [`affiliate-signup:${leadId}`, 'duplicate'],
    ]);
    expect(affiliate.signups()).toHaveLength(1);
    expect(await ledgerRow(leadId)).toMatchObject({ status: 'done', attempts: 2, detail: { outcome: 'duplicate' } });
  });

  it('retries a 503 with the same idempotency key on every attempt and records one success', async () => {
    affiliate.failNextRequests(2);
    const leadId = await referredLead('flaky@example.com');
    await settled(leadId);

    const attempts = affiliate.signupAttempts();
    expect(attempts.map((a) => [a.idempotencyKey, a.status])).toEqual([
      [`affiliate-signup:${leadId}`, 503],
      [`affiliate-signup:${leadId}`, 503],
      [`affiliate-signup:${leadId}`, 200],
    ]);
    expect(affiliate.signups()).toHaveLength(1);
    const row = await ledgerRow(leadId);
    expect(row).toMatchObject({ status: 'done', attempts: 3, detail: { outcome: 'done', status: 200 } });
    expect(row.finished_at).not.toBeNull();
  });

  it('short-circuits a finished record: a redelivered job calls nobody', async () => {
    const leadId = await referredLead('twice@example.com');
    await settled(leadId);
    await redeliverSignup(stack, leadId);
    expect(affiliate.signupAttempts()).toHaveLength(1);
    expect(await ledgerRow(leadId)).toMatchObject({ status: 'done', attempts: 1 });
    expect(await statusOf(leadId)).toBe('sent');
  });

  it('records a permanent refusal as failed, without the response body, and never retries it', async () => {
    affiliate.failNextRequests(1, 400);
    const leadId = await referredLead('refused@example.com');
    await waitFor(async () => (await statusOf(leadId))?.startsWith('failed'), 'a failed status');
    // The job has ended (no retry is pending) before the attempts are counted.
    await outboxDrained(stack.db);
    expect(await statusOf(leadId)).toBe('failed: Affiliate service answered 400');
    expect(affiliate.signupAttempts()).toHaveLength(1);
    expect(await ledgerRow(leadId)).toMatchObject({ status: 'failed', attempts: 1, detail: { outcome: 'rejected', status: 400 } });
  });
});
