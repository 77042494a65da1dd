/**
 * Exactly-once, counted at the fakes' door. Every fake records every request it receives before
 * deciding what to answer; these helpers group those attempts by what makes them the same effect
 * (an idempotency key, a lead's e-mail, a payment's event id, a message id) and report:
 *
 * - an expected effect that never arrived;
 * - an effect nobody expected;
 * - a repeat: an attempt made after the sender had been told the effect was done (a success or a
 *   "duplicate" answer). Retries after a failure, or after an answer the sender never received,
 *   are what idempotency keys exist for and are not repeats.
 *
 * A test states how many repeats it allows: none, unless a process was killed between the
 * third party's answer and the ledger's record (then at most the jobs it had in flight).
 */
export interface DoorAttempt {
  /** What makes two attempts the same effect. */
  identity: string;
  /** The sender was told the effect is done (it must not try again). */
  toldDone: boolean;
}

interface AttemptTally {
  attempts: number;
  /** Attempts made after an earlier one had been told it was done. */
  repeats: number;
  /** At least one attempt was told it was done. */
  done: boolean;
}

function tallyAttempts(attempts: readonly DoorAttempt[]): Map<string, AttemptTally> {
  const tallies = new Map<string, AttemptTally>();
  for (const { identity, toldDone } of attempts) {
    const tally = tallies.get(identity) ?? { attempts: 0, repeats: 0, done: false };
    tally.attempts += 1;
    if (tally.done) tally.repeats += 1;
    if (toldDone) tally.done = true;
    tallies.set(identity, tally);
  }
  return tallies;
}

/**
 * What is wrong with `attempts` for "each of `expected` exactly once", as readable lines: empty
 * when every expected effect was done, nothing else was attempted, and no more than
 * `allowedRepeats` repeats were made in all.
 */
export function exactlyOnceProblems(attempts: readonly DoorAttempt[], expected: readonly string[], allowedRepeats = 0): string[] {
  const tallies = tallyAttempts(attempts);
  const problems: string[] = [];
  const wanted = new Set(expected);
  for (const identity of wanted) {
    const tally = tallies.get(identity);
    if (!tally) problems.push(`${identity}: never attempted`);
    else if (!tally.done) problems.push(`${identity}: ${tally.attempts} attempt(s), none done`);
  }
  for (const identity of tallies.keys()) if (!wanted.has(identity)) problems.push(`${identity}: not expected, yet attempted`);
  const repeated = [...tallies].filter(([, t]) => t.repeats > 0);
  const repeats = repeated.reduce((sum, [, t]) => sum + t.repeats, 0);
  if (repeats > allowedRepeats) {
    problems.push(
      `${repeats} repeat(s) after done (allowed ${allowedRepeats}): ` +
        repeated
          .slice(0, 10)
          .map(([identity, t]) => `${identity} ×${t.repeats + 1}`)
          .join(', '),
    );
  }
  return problems;
}

export interface DoorSummary {
  /** Distinct effects the sender was told are done. */
  done: number;
  /** Distinct effects attempted but never told done. */
  undone: number;
  /** Attempts made after done, in all. */
  repeats: number;
}

/** One fake's attempts in three numbers, for `toEqual` against what a test expects. */
export function doorSummary(attempts: readonly DoorAttempt[]): DoorSummary {
  const summary: DoorSummary = { done: 0, undone: 0, repeats: 0 };
  for (const tally of tallyAttempts(attempts).values()) {
    if (tally.done) summary.done += 1;
    else summary.undone += 1;
    summary.repeats += tally.repeats;
  }
  return summary;
}

/** `count` effects, each done, none repeated. */
export const onceEach = (count: number): DoorSummary => ({ done: count, undone: 0, repeats: 0 });
