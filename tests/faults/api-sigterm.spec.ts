import { ApiProcess, exited, FaultStack } from './support/fault-stack';
import { Outcome, postOnFreshConnection, sleep, waitFor } from './support/traffic';

/**
 * SIGTERM to the API while leads stream in (each on a connection of its own). The API stops
 * listening, finishes every request it had taken (the lead batch writer included), and exits 0
 * within its shutdown budget. A client sees an answer or a refused connection, never a reset.
 */
let stack: FaultStack;
let api: ApiProcess;

/** The API's own budget is SHUTDOWN_TIMEOUT_S less 1 s (10 s here); a little more for a busy machine. */
const EXIT_BUDGET_MS = 15_000;

beforeAll(async () => {
  stack = await FaultStack.start('sigterm');
  const env = await stack.env({ SHUTDOWN_TIMEOUT_S: '11' });
  api = await stack.startApi(env);
});

afterAll(() => stack?.undoAll());

it('answers every request it had taken, loses no accepted lead and exits 0', async () => {
  const outcomes: Array<{ email: string; outcome: Outcome }> = [];
  let next = 0;
  let refusedInARow = 0;
  const client = async () => {
    // Until the port has refused a few connections in a row: the API is gone.
    while (refusedInARow < 20) {
      const email = `sigterm-${next++}@example.com`;
      const outcome = await postOnFreshConnection(`${api.url}/api/leads`, { email, name: 'Fault Lead', referral: 'partner7' });
      outcomes.push({ email, outcome });
      refusedInARow = outcome.error === 'ECONNREFUSED' ? refusedInARow + 1 : 0;
      if (outcome.error === 'ECONNREFUSED') await sleep(20);
    }
  };
  const stream = Promise.all(Array.from({ length: 16 }, client));
  await waitFor(() => outcomes.filter((o) => o.outcome.status === 201).length >= 200, 'leads flowing before the signal');
  const signalled = Date.now();
  api.child.kill('SIGTERM');
  const exit = await exited(api);
  const shutdownMs = Date.now() - signalled;
  await stream;

  expect(exit).toEqual({ code: 0, signal: null });
  expect(shutdownMs).toBeLessThan(EXIT_BUDGET_MS);
  const answered = outcomes.filter((o) => !o.outcome.error);
  expect(answered.filter((o) => o.outcome.status !== 201 && o.outcome.status !== 503).map((o) => o.outcome)).toEqual([]);
  const accepted = answered.filter((o) => o.outcome.status === 201).map((o) => o.email);
  const { rows } = await stack.db.query(
    `SELECT count(*)::int AS n, count(o.id)::int AS owed FROM leads l LEFT JOIN outbox o ON o.payload->>'leadId' = l.id::text WHERE l.email = ANY($1::text[])`,
    [accepted],
  );
  expect(rows[0]).toEqual({ n: accepted.length, owed: accepted.length });

  // A connection still in the kernel's accept queue when the listener closes is reset before the
  // API has read a byte of it: nothing was taken. A reset of a request the API did take (its lead
  // is stored) is an answer lost in shutdown; any other transport error is a fault as well.
  const failed = outcomes.filter((o) => o.outcome.error && o.outcome.error !== 'ECONNREFUSED');
  expect(failed.filter((o) => o.outcome.error !== 'ECONNRESET').map((o) => o.outcome.error)).toEqual([]);
  const taken = await stack.db.query(`SELECT email FROM leads WHERE email = ANY($1::text[])`, [failed.map((o) => o.email)]);
  expect(taken.rows).toEqual([]);
});
