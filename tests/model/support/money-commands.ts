import fc from 'fast-check';
import { PLAN_IDS, type PlanId, planOf } from '@contracts/plans';
import { moneyProblems } from './money-invariants';
import { CARDS, pauseMonths, type AccountAction, type CardName, type KillPoint, type MoneyWorld } from './money-world';

/** The model keeps no state of its own: the invariants read the real system after every command. */
type Model = Record<string, never>;

/** One step of a sequence: what it does, in words a failure prints, and the world call that does it. */
class Step implements fc.AsyncCommand<Model, MoneyWorld> {
  constructor(
    readonly label: string,
    readonly act: (world: MoneyWorld) => Promise<string>,
  ) {}

  check(): boolean {
    return true;
  }

  async run(_model: Model, world: MoneyWorld): Promise<void> {
    const outcome = await this.act(world);
    if (process.env.MODEL_VERBOSE) process.stdout.write(`  ${this.label}: ${outcome}\n`);
    await world.settle();
    const problems = await moneyProblems(world);
    if (problems.length) throw new Error(`After ${this.label} (${outcome}):\n  ${problems.join('\n  ')}`);
  }

  toString(): string {
    return this.label;
  }
}

const ONE_TIME_PLANS = PLAN_IDS.filter((id) => planOf(id).kind === 'one-time');
const buyer = fc.integer({ min: 0, max: 1 });
const index = fc.nat({ max: 20 });

/** Every plan, an instalment plan twice as likely: its later charges are where money goes wrong most ways. */
const anyPlan = fc.oneof(...PLAN_IDS.map((id) => ({ arbitrary: fc.constant<PlanId>(id), weight: planOf(id).instalments ? 2 : 1 })));
const purchase = fc
  .record({ plan: anyPlan, card: fc.constantFrom(...(Object.keys(CARDS) as CardName[])), buyer })
  .map(({ plan, card, buyer: b }) => new Step(`buy ${plan} with ${card} as buyer ${b}`, (w) => w.buy(plan, card, b)));
const refund = fc
  .record({ k: index, full: fc.boolean() })
  .map(({ k, full }) => new Step(`admin refunds payment #${k} ${full ? 'in full' : 'in part'}`, (w) => w.refund(k, full)));
const clock = fc.integer({ min: 1, max: 40 }).map((days) => new Step(`advance the clock ${days} days`, (w) => w.advance(days)));
const dispute = fc
  .record({ k: index, won: fc.boolean() })
  .map(({ k, won }) => new Step(`dispute #${k} is ${won ? 'won' : 'lost'}`, (w) => w.decideDispute(k, won)));

const KILL_POINTS: Record<KillPoint, (nth: number) => string> = {
  'mid-call': (nth) => `mid-call (call ${nth} done, its answer held)`,
  claimed: () => 'once a side effect is claimed',
  relayed: () => 'once a job is handed to it',
};
/**
 * A command whose work the worker process is SIGKILLed in the middle of, at one of the points of
 * KILL_POINTS (and, one time in three, the new worker too: a crash loop); a new worker process
 * starts and finishes it. Commands that owe third-party calls, purchases most (they owe the most).
 */
const killed = fc
  .record({
    step: fc.oneof({ arbitrary: purchase, weight: 3 }, clock, refund, dispute),
    point: fc.constantFrom<KillPoint>('mid-call', 'mid-call', 'claimed', 'relayed'),
    nth: fc.integer({ min: 1, max: 3 }),
    times: fc.constantFrom<1 | 2>(1, 1, 2),
  })
  .map(({ step, point, nth, times }) => {
    const again = times === 2 ? ', then its successor too' : '';
    return new Step(`${step.label}, the worker killed ${KILL_POINTS[point](nth)}${again}`, (w) =>
      w.killWorker(step.act, { point, nth, times }),
    );
  });

/**
 * Every command the model mixes: buying, upgrading, time passing, the admin, the member, the
 * provider, the worker (restarted between jobs, or killed in the middle of one). Purchases, the
 * clock and refunds are listed three, two and two times (fast-check picks an entry uniformly), so
 * sequences hold enough orders, months and money going back for the rest to act on.
 */
export const moneyCommands: Array<fc.Arbitrary<fc.AsyncCommand<Model, MoneyWorld>>> = [
  purchase,
  purchase,
  purchase,
  clock,
  clock,
  fc
    .record({ plan: fc.constantFrom<PlanId>(...ONE_TIME_PLANS), buyer, clicks: fc.constantFrom<1 | 2>(1, 2), overtaken: fc.boolean() })
    .map(({ plan, buyer: b, clicks, overtaken }) => {
      const race = overtaken ? ', its event applied before the API stores the charge' : '';
      return new Step(`one-click ${plan} as buyer ${b}, ${clicks} click(s)${race}`, (w) => w.oneClick(plan, b, clicks, overtaken));
    }),
  refund,
  refund,
  fc
    .record({
      action: fc.constantFrom<AccountAction>('cancel', 'resume', 'card', 'pause'),
      k: index,
      card: fc.constantFrom<CardName>('pays', 'failsLater'),
    })
    .map(({ action, k, card }) => {
      const what = action === 'card' ? `updates the card to ${card}` : action === 'pause' ? `pauses ${pauseMonths(k)} month(s)` : `${action}s`;
      return new Step(`member #${k} ${what} on /account`, (w) => w.account(action, k, card));
    }),
  index.map((k) => new Step(`admin stops instalment plan #${k}`, (w) => w.stopInstalments(k))),
  dispute,
  fc
    .record({ k: index, asNew: fc.boolean() })
    .map(
      ({ k, asNew }) =>
        new Step(`the provider delivers event #${k} ${asNew ? 'again out of order' : 'twice'}`, (w) => w.redeliver(k, asNew)),
    ),
  // One entry for both: each starts a worker process (seconds of CPU on a busy machine), which
  // the bounded run affords about once a sequence.
  fc.oneof(
    { arbitrary: fc.constant(new Step('the worker restarts', (w) => w.restartWorker())), weight: 1 },
    { arbitrary: killed, weight: 3 },
  ),
  fc.constant(new Step("the reconciler's pass runs", (w) => w.reconcile())),
];
