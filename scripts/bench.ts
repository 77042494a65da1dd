import { benchLeads } from '../tests/bench/leads.bench';
import { benchWeb } from '../tests/bench/web.bench';
import { fail } from './lib/log';

/** `npm run bench [leads|web]`: benchmarks that print figures; no pass/fail thresholds. */
const suites: Record<string, () => Promise<void>> = { leads: benchLeads, web: benchWeb };

async function main(): Promise<void> {
  const chosen = process.argv.slice(2);
  const names = chosen.length ? chosen : Object.keys(suites);
  for (const name of names) {
    const run = suites[name];
    if (!run) fail(`Unknown benchmark "${name}"; choose from: ${Object.keys(suites).join(', ')}`);
    await run();
  }
}

main().catch((err: Error) => fail(err.stack ?? err.message));
