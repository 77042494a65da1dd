import fc from 'fast-check';
import { moneyCommands } from './support/money-commands';
import { MoneyWorld } from './support/money-world';

/**
 * Money invariants over random sequences (model-based testing with fast-check): purchases of
 * every plan with Stripe's test cards, one-click upgrades (double-clicked too), the sandbox clock,
 * admin refunds, cancel/resume/new card on /account, events delivered twice or out of order,
 * worker restarts and the worker process killed mid-job, against the real API, the compiled
 * worker (dist/, which `npm test` builds first), Postgres, Redis and sandbox. After every step
 * the invariants of `money-invariants.ts` are read from Postgres and the fakes' doors. A failure
 * is shrunk to the smallest sequence and printed with the seed and path that replay it:
 * `npm run test:model -- --seed <seed> --path <path>`. `npm test` runs MODEL_RUNS sequences
 * (default 45, 2-3 minutes on a busy machine: each worker kill or restart starts a process);
 * `npm run test:model -- --runs 500` runs longer. The closing line counts where the kills landed.
 */
const world = new MoneyWorld();
const runs = Number(process.env.MODEL_RUNS ?? 45);
const seed = process.env.MODEL_SEED ? Number(process.env.MODEL_SEED) : undefined;
const path = process.env.MODEL_PATH || undefined;

beforeAll(() => world.start());
afterAll(() => world.stop());

it(`holds the money invariants over ${runs} random sequences`, async () => {
  const started = Date.now();
  let sequences = 0;
  let steps = 0;
  await fc.assert(
    fc.asyncProperty(fc.commands(moneyCommands, { maxCommands: 24, size: 'max' }), async (commands) => {
      await world.reset();
      sequences += 1;
      steps += [...commands].length;
      await fc.asyncModelRun(() => ({ model: {}, real: world }), commands);
    }),
    { numRuns: runs, seed, path, endOnFailure: false, verbose: 1 },
  );
  const { midCall, claimed, relayed, notReached } = world.kills;
  process.stdout.write(
    `model: ${sequences} sequences, ${steps} commands, ${((Date.now() - started) / 1000).toFixed(0)} s; ` +
      `kills: ${midCall} mid-call, ${claimed + relayed} elsewhere in a job (${claimed} with a side effect claimed, ${relayed} with a job handed over); ${notReached} not killed, its work over before the point\n`,
  );
}, 3_600_000);
