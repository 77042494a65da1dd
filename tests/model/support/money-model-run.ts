import fc from 'fast-check';
import { moneyCommands } from './money-commands';
import type { MoneyWorld } from './money-world';

/**
 * Runs `runs` random command sequences against `world` (each from a reset), shrinking a failure
 * to the seed and path that replay it (MODEL_SEED, MODEL_PATH), and prints one line:
 * `<label>: N sequences, M commands, S s`, followed by what `summary` adds once the runs are over.
 * fast-check throws on the first broken invariant; what it returns is how much was run, which the
 * specs check, so a run that exercised nothing cannot pass.
 */
export async function runMoneyModel(
  world: MoneyWorld,
  runs: number,
  label: string,
  summary?: () => string,
): Promise<{ sequences: number; steps: number; replay: boolean }> {
  const seed = process.env.MODEL_SEED ? Number(process.env.MODEL_SEED) : undefined;
  const path = process.env.MODEL_PATH || undefined;
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
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  process.stdout.write(`${label}: ${sequences} sequences, ${steps} commands, ${seconds} s${summary ? `; ${summary()}` : ''}\n`);
  return { sequences, steps, replay: path !== undefined };
}

/** What every model spec expects of a run: all its sequences (one when replaying a path), none empty. */
export function expectFullRun(run: { sequences: number; steps: number; replay: boolean }, runs: number): void {
  expect(run.sequences).toBe(run.replay ? 1 : runs);
  expect(run.steps).toBeGreaterThanOrEqual(run.sequences);
}
