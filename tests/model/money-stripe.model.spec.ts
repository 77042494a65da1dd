import { moneyProblems } from './support/money-invariants';
import { expectFullRun, runMoneyModel } from './support/money-model-run';
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

beforeAll(() => world.start());
afterAll(() => world.stop());

it(`holds the money invariants with Stripe over ${runs} random sequences`, async () => {
  // Each step's invariants are checked inside the run (a violation fails it, shrunk); these hold
  // the run to every sequence, and the last sequence's money once its late events have landed.
  expectFullRun(await runMoneyModel(world, runs, 'model (Stripe)'), runs);
  await world.settle();
  expect(await moneyProblems(world)).toEqual([]);
}, 3_600_000);
