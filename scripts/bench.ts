import { benchApi } from '../tests/bench/api.bench';
import { benchLaunch } from '../tests/bench/launch.bench';
import { benchQueue } from '../tests/bench/queue.bench';
import { BenchReport } from '../tests/bench/report';
import { benchWeb } from '../tests/bench/web.bench';
import { Lifecycle } from './lib/lifecycle';
import { step } from './lib/log';

type Suite = (life: Lifecycle) => Promise<void>;

/** `npm run bench [api|queue|web|leads|verify|launch]`: benchmarks that print figures; no pass/fail thresholds. */
const suites: Record<string, Suite> = { api: (life) => benchApi(life), queue: benchQueue, web: benchWeb };

/**
 * By name only: parts of the api suite on their own (a plain `npm run bench` runs the whole suite
 * once), and the launch rush, which takes minutes and loads the machine to saturation.
 */
const parts: Record<string, Suite> = {
  leads: (life) => benchApi(life, ['leads']),
  verify: (life) => benchApi(life, ['verify']),
  launch: benchLaunch,
};

async function main(life: Lifecycle): Promise<number> {
  // The benchmarks run on their own settings: no process they start reads a developer's .env.
  process.env.ENV_FILE = 'none';
  const chosen = process.argv.slice(2);
  const runnable = { ...suites, ...parts };
  const unknown = chosen.filter((name) => !runnable[name]);
  if (unknown.length) throw new Error(`Unknown benchmark "${unknown.join(', ')}"; choose from: ${Object.keys(runnable).join(', ')}`);
  life.ownTempDir('bench-run');
  for (const name of chosen.length ? chosen : Object.keys(suites)) await runnable[name](life);
  const summary = BenchReport.summary();
  if (summary) {
    step('Summary (JSON under test-results/bench/)');
    process.stdout.write(`\n${summary}\n\n`);
  }
  return 0;
}

const life = new Lifecycle({ quiet: true });
life.run(() => main(life));
