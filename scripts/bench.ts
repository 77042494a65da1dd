import { benchApi } from '../tests/bench/api.bench';
import { benchEmail } from '../tests/bench/email-render.bench';
import { benchLaunch } from '../tests/bench/launch.bench';
import { benchQueue } from '../tests/bench/queue.bench';
import { BenchReport } from '../tests/bench/report';
import { benchWeb } from '../tests/bench/web.bench';
import { Lifecycle } from './lib/lifecycle';
import { step } from './lib/log';

/** A suite that holds figures to a budget says whether they kept it; the others print figures only. */
type Suite = (life: Lifecycle) => Promise<void | boolean>;

/**
 * `npm run bench [api|queue|web|email|leads|verify|gate|launch] [--enforce-budget]`: benchmarks that print figures.
 * `web` and `email` also print their figures against a budget and a verdict; only with --enforce-budget does
 * a verdict over budget make the command fail (exit 1), once every table is printed.
 */
const suites: Record<string, Suite> = { api: (life) => benchApi(life), queue: benchQueue, web: benchWeb, email: benchEmail };
const ENFORCE_BUDGET = '--enforce-budget';

/**
 * By name only: parts of the api suite on their own (a plain `npm run bench` runs the whole suite
 * once), and the launch rush, which takes minutes and loads the machine to saturation.
 */
const parts: Record<string, Suite> = {
  leads: (life) => benchApi(life, ['leads']),
  verify: (life) => benchApi(life, ['verify']),
  gate: (life) => benchApi(life, ['leads', 'invitation-gate'], { leadChecks: false }),
  launch: benchLaunch,
};

async function main(life: Lifecycle): Promise<number> {
  // The benchmarks run on their own settings: no process they start reads a developer's .env.
  process.env.ENV_FILE = 'none';
  const args = process.argv.slice(2);
  const enforceBudget = args.includes(ENFORCE_BUDGET);
  const chosen = args.filter((arg) => arg !== ENFORCE_BUDGET);
  const runnable = { ...suites, ...parts };
  const unknown = chosen.filter((name) => !runnable[name]);
  if (unknown.length)
    throw new Error(`Unknown benchmark "${unknown.join(', ')}"; choose from: ${Object.keys(runnable).join(', ')} (and ${ENFORCE_BUDGET})`);
  life.ownTempDir('bench-run');
  const overBudget: string[] = [];
  for (const name of chosen.length ? chosen : Object.keys(suites)) if ((await runnable[name](life)) === false) overBudget.push(name);
  const summary = BenchReport.summary();
  if (summary) {
    step('Summary (JSON under test-results/bench/)');
    process.stdout.write(`\n${summary}\n\n`);
  }
  if (overBudget.length && enforceBudget) {
    step(`Over budget: ${overBudget.join(', ')} (${ENFORCE_BUDGET} makes that a failure)`);
    return 1;
  }
  return 0;
}

const life = new Lifecycle({ quiet: true });
life.run(() => main(life));
