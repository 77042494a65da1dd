/** Rejects when `work` has not settled within `ms`; the timer is cleared either way. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `work`'s value if it resolves within `ms`; null if it rejects or takes longer. Never rejects:
 * for a step worth waiting for briefly but not worth failing over (shutdown).
 */
export async function valueWithin<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([work.catch(() => null), late]).finally(() => clearTimeout(timer));
}

/** Waits for `work` to settle, at most `ms`, and never rejects (`valueWithin`, its value unused). */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  await valueWithin(work, ms);
}
