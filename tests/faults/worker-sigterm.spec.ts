import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { ApiProcess, exited, FaultStack } from './support/fault-stack';
import { callsWithoutClaim, leadStream, signupTally, waitFor } from './support/traffic';

/**
 * SIGTERM to the worker while affiliate calls are in flight: it lets those jobs finish (their
 * answers are received, none is cut off), exits 0 within its budget, and a worker started
 * afterwards does the rest. Every lead is signed up exactly once.
 */
const affiliate = new FakeAffiliateServer();
let stack: FaultStack;
let api: ApiProcess;
let env: NodeJS.ProcessEnv;

const LEADS = 40;
/** The worker's own budget is SHUTDOWN_TIMEOUT_S less 1 s (10 s here); a little more for a busy machine. */
const EXIT_BUDGET_MS = 15_000;

beforeAll(async () => {
  stack = await FaultStack.start('worker-sigterm');
  await affiliate.start();
  stack.life.own('Fake affiliate service', () => affiliate.stop());
  env = await stack.env({
    AFFILIATE_API_URL: affiliate.url,
    AFFILIATE_API_KEY: 'fault-key',
    AFFILIATE_TIMEOUT_MS: '5000',
    SHUTDOWN_TIMEOUT_S: '11',
  });
  api = await stack.startApi(env);
});

afterAll(() => stack?.undoAll());

it('finishes the jobs in flight, exits 0, and the next worker does the rest exactly once', async () => {
  // Every signup is acted on at once and answered a second later: jobs are in flight when the signal lands.
  affiliate.answerLate(1000);
  const posted = await leadStream(api.url, { prefix: 'worker-sigterm', concurrency: 4, count: LEADS });
  expect(posted.filter((p) => p.outcome.status !== 201)).toEqual([]);

  const worker = stack.startWorker(env, 'Worker 1');
  await waitFor(() => affiliate.signupAttempts().length >= 5, 'affiliate calls in flight');
  const signalled = Date.now();
  worker.child.kill('SIGTERM');
  const exit = await exited(worker);
  expect(exit).toEqual({ code: 0, signal: null });
  expect(Date.now() - signalled).toBeLessThan(EXIT_BUDGET_MS);
  // The jobs it had taken ran to their answer: the fake never saw a client give up.
  expect(affiliate.signupAttempts().filter((a) => a.answer === 'lost')).toEqual([]);

  affiliate.answerLate(0, 0);
  stack.startWorker(env, 'Worker 2');
  await waitFor(
    async () => {
      const { rows } = await stack.db.query(`SELECT count(*)::int AS n FROM outbox WHERE completed_at IS NULL`);
      return rows[0].n === 0;
    },
    'every owed job completed',
    60_000,
  );
  const tally = signupTally(affiliate);
  expect(tally.size).toBe(LEADS);
  expect([...tally.values()].filter((t) => t.ok !== 1 || t.duplicate !== 0 || t.lost !== 0)).toEqual([]);
  expect(await callsWithoutClaim(affiliate, stack.db)).toEqual([]);
});

it('exits 0 when signalled just after Redis came back, its connections still reconnecting', async () => {
  const worker = stack.startWorker(env, 'Worker 3');
  const before = affiliate.signupAttempts().length;
  const posted = await leadStream(api.url, { prefix: 'worker-sigterm-redis', concurrency: 1, count: 1 });
  expect(posted.map((p) => p.outcome.status)).toEqual([201]);
  await waitFor(() => affiliate.signupAttempts().length > before, 'a signup: the workers consume');
  // Redis goes away long enough for the workers' connections to back off, then returns.
  await stack.killRedis();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await stack.startRedis();
  const signalled = Date.now();
  worker.child.kill('SIGTERM');
  // BullMQ's graceful close waits for a reconnecting connection's end, which never comes: the
  // worker used to hang until its shutdown budget ran out (exit 1) or it was killed.
  expect(await exited(worker)).toEqual({ code: 0, signal: null });
  expect(Date.now() - signalled).toBeLessThan(EXIT_BUDGET_MS);
});

