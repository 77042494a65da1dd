import fc from 'fast-check';
import { moneyCommands } from './support/money-commands';
import { StripeWorld } from './support/stripe-world';

/**
 * The money model of money.model.spec.ts, with Stripe as the payment provider: the same commands
 * and invariants against the product's Stripe gateway and webhook route, the Stripe fake playing a
 * test-mode account with a test clock (tests/fakes/stripe-simulator.ts) that sends Stripe's
 * signed events as its objects move. A failure is shrunk and printed with the seed and path that
 * replay it: `npm test -- tests/model/money-stripe.model.spec.ts --seed <seed> --path <path>`.
 * `npm test` runs MODEL_STRIPE_RUNS sequences (default 15, under a minute); `npm run test:model
 * -- --runs N` runs N here too.
 */
const world = new StripeWorld();
const runs = Number(process.env.MODEL_STRIPE_RUNS ?? process.env.MODEL_RUNS ?? 15);
const seed = process.env.MODEL_SEED ? Number(process.env.MODEL_SEED) : undefined;
const path = process.env.MODEL_PATH || undefined;

beforeAll(() => world.start());
afterAll(() => world.stop());

it(`holds the money invariants with Stripe over ${runs} random sequences`, async () => {
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
  process.stdout.write(`model (Stripe): ${sequences} sequences, ${steps} commands, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}, 3_600_000);
