import { benchLeads } from '../tests/bench/leads.bench';
import { BenchReport } from '../tests/bench/report';
import { benchVerify } from '../tests/bench/verify.bench';
import { benchWeb } from '../tests/bench/web.bench';
import { Lifecycle } from './lib/lifecycle';
import { step } from './lib/log';

/** `npm run bench [leads|verify|web]`: benchmarks that print figures; no pass/fail thresholds. */
const suites: Record<string, (life: Lifecycle) => Promise<void>> = { leads: benchLeads, verify: benchVerify, web: benchWeb };

async function main(life: Lifecycle): Promise<number> {
  const chosen = process.argv.slice(2);
  const unknown = chosen.filter((name) => !suites[name]);
  if (unknown.length) throw new Error(`Unknown benchmark "${unknown.join(', ')}"; choose from: ${Object.keys(suites).join(', ')}`);
  life.ownTempDir('bench-run');
  for (const name of chosen.length ? chosen : Object.keys(suites)) await suites[name](life);
  const summary = BenchReport.summary();
  if (summary) {
    step('Summary (JSON under test-results/bench/)');
    process.stdout.write(`\n${summary}\n\n`);
  }
  return 0;
}

const life = new Lifecycle({ quiet: true });
life.run(() => main(life));
