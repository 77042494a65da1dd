import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { ApiProcess, FaultStack } from './support/fault-stack';
import { callsWithoutClaim, postJson, signupTally, waitFor } from './support/traffic';

/**
 * The affiliate service answers 500s, then hangs past the client's timeout (having acted), for a
 * while. Jobs retry with exponential backoff and then succeed; every retry carries the same
 * idempotency key, and a signup is sent again only when the answer to an acted-on one was lost.
 */
const affiliate = new FakeAffiliateServer();
let stack: FaultStack;
let api: ApiProcess;

const BACKOFF_MS = 200;
const TIMEOUT_MS = 300;
const LEADS = 12;

beforeAll(async () => {
  stack = await FaultStack.start('affiliate');
  await affiliate.start();
  stack.life.own('Fake affiliate service', () => affiliate.stop());
  const env = await stack.env({
    AFFILIATE_API_URL: affiliate.url,
    AFFILIATE_API_KEY: 'fault-key',
    AFFILIATE_TIMEOUT_MS: String(TIMEOUT_MS),
    JOB_BACKOFF_MS: String(BACKOFF_MS),
  });
  api = await stack.startApi(env);
  stack.startWorker(env);
});

afterAll(() => stack?.undoAll());

it('retries through 500s and timeouts with backoff, then signs each lead up once', async () => {
  // The first 30 requests: 500, nothing done. The first 6 signups done: answered after the timeout.
  affiliate.failNextRequests(30, 500);
  affiliate.answerLate(TIMEOUT_MS * 3, 6);
  const emails = Array.from({ length: LEADS }, (_, i) => `outage-${i}@example.com`);
  for (const email of emails)
    expect((await postJson(`${api.url}/api/leads`, { email, name: 'Fault Lead', referral: 'partner7' })).status).toBe(201);

  await waitFor(
    async () => (await stack.db.query(`SELECT count(*)::int AS n FROM leads WHERE affiliate_status = 'sent'`)).rows[0].n === LEADS,
    'every lead signed up after the outage',
    60_000,
    250,
  );
  const leads: Array<{ id: string }> = (await stack.db.query(`SELECT id FROM leads`)).rows;
  const attempts = affiliate.signupAttempts();
  expect(attempts.filter((a) => a.answer === 'failed').length).toBe(30);
  expect(attempts.some((a) => a.answer === 'lost')).toBe(true);

  const tally = signupTally(affiliate);
  for (const { id } of leads) {
    const mine = attempts.filter((a) => a.params.uid === id);
    const t = tally.get(id)!;
    // Acted on exactly once, whether its answer arrived ('ok') or not ('lost').
    expect({ id, effective: t.ok + t.lost }).toEqual({ id, effective: 1 });
    // Sent again after an acted-on attempt only when that answer was lost, and then recognised.
    expect({ id, duplicates: t.duplicate }).toEqual({ id, duplicates: t.lost });
    expect(new Set(mine.map((a) => a.idempotencyKey))).toEqual(new Set([`affiliate-signup:${id}`]));
    // Exponential backoff with jitter 0.5 waits at least half of delay·2^(k-1) before retry k.
    const arrivals = mine.map((a) => a.at);
    const span = Math.max(...arrivals) - Math.min(...arrivals);
    const minimum = 0.5 * BACKOFF_MS * (2 ** (mine.length - 1) - 1);
    expect({ id, retries: mine.length - 1, waitedEnough: span >= minimum }).toEqual({ id, retries: mine.length - 1, waitedEnough: true });
  }
  expect(affiliate.signups()).toHaveLength(LEADS);
  expect(await callsWithoutClaim(affiliate, stack.db)).toEqual([]);
  const failedRows = await stack.db.query(`SELECT count(*)::int AS n FROM outbox WHERE completed_at IS NULL`);
  expect(failedRows.rows[0].n).toBe(0);
});
