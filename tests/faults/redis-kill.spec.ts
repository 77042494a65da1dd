import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { ApiProcess, FaultStack } from './support/fault-stack';
import { everyOwedJobFinished, leadStream, callsWithoutClaim, signupTally, sleep, waitFor } from './support/traffic';

/**
 * Redis is killed (SIGKILL, no persistence: every job in it is gone) while leads stream in, and
 * started again on the same port. The API keeps accepting leads (the outbox holds what is owed),
 * the relay re-offers what Redis lost, and the ledger keeps each signup to one send.
 */
const affiliate = new FakeAffiliateServer();
let stack: FaultStack;
let api: ApiProcess;

beforeAll(async () => {
  stack = await FaultStack.start('redis');
  await affiliate.start();
  stack.life.own('Fake affiliate service', () => affiliate.stop());
  const env = await stack.env({ AFFILIATE_API_URL: affiliate.url, AFFILIATE_API_KEY: 'fault-key' });
  api = await stack.startApi(env);
  stack.startWorker(env);
});

afterAll(() => stack?.undoAll());

it('every lead answered 2xx is stored and signed up with the affiliate exactly once after Redis comes back', async () => {
  let streaming = true;
  const stream = leadStream(api.url, { prefix: 'redis-kill', concurrency: 6, stop: () => !streaming, pauseMs: 5 });
  await waitFor(() => affiliate.signups().length >= 20, 'the first signups before the fault');
  await stack.killRedis();
  await sleep(2000);
  await stack.startRedis();
  await sleep(1000);
  streaming = false;
  const posted = await stream;

  const accepted = posted.filter((p) => p.outcome.status >= 200 && p.outcome.status < 300);
  // Redis is not on the lead path: nothing is refused while it is away.
  expect(posted.filter((p) => p.outcome.status !== 201).map((p) => p.outcome)).toEqual([]);
  expect(accepted.length).toBeGreaterThan(50);

  const stored: Array<{ id: string; email: string }> = (
    await stack.db.query(`SELECT id, email FROM leads WHERE email = ANY($1::text[])`, [accepted.map((p) => p.email)])
  ).rows;
  expect(stored).toHaveLength(accepted.length);

  await waitFor(
    async () =>
      (await stack.db.query(`SELECT count(*)::int AS n FROM leads WHERE affiliate_status = 'sent'`)).rows[0].n === accepted.length,
    'every accepted lead signed up',
    45_000,
    250,
  );
  // Until every owed job has ended, a redispatch could still send a lead again: wait for that.
  await everyOwedJobFinished(stack.db, 45_000);
  expect(
    exactlyOnceProblems(
      affiliate.signupsAtDoor(),
      accepted.map((p) => p.email),
    ),
  ).toEqual([]);
  expect(await callsWithoutClaim(affiliate, stack.db)).toEqual([]);
  const tally = signupTally(affiliate);
  expect(stored.filter((lead) => tally.get(lead.id)?.ok !== 1)).toEqual([]);
  expect([...tally.entries()].filter(([, t]) => t.duplicate > 0 || t.ok > 1)).toEqual([]);
  expect(affiliate.signups()).toHaveLength(accepted.length);
  const { rows } = await stack.db.query(`SELECT count(*)::int AS n FROM outbox WHERE completed_at IS NULL`);
  expect(rows[0].n).toBe(0);
});
