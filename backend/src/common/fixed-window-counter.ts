import { HttpException, HttpStatus } from '@nestjs/common';

/** Beyond this many tracked keys, expired windows are swept before a new key is added. */
const SWEEP_AT = 10_000;

/** One key's attempts in its current window, and how long until that window ends. */
export interface WindowCount {
  count: number;
  ttlMs: number;
}

/**
 * Counts attempts per key in fixed windows; each key's window starts with its first attempt.
 * An abstract class rather than an interface so that it is also the limiters' injection token.
 */
export abstract class WindowStore {
  abstract increment(key: string, windowMs: number): Promise<WindowCount>;
  /** The key's attempts in its current window, without counting one (0 when it has none). */
  abstract count(key: string): Promise<number>;
  /** Ends the key's window: its next attempt starts a new one. */
  abstract clear(key: string): Promise<void>;
}

/**
 * Fixed windows in this process's memory: what an instance counts with while Redis is away.
 * Memory stays bounded: expired windows are swept once many keys are tracked.
 */
export class MemoryWindows extends WindowStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly clock: () => number = Date.now) {
    super();
  }

  increment(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.clock();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (!window && this.windows.size >= SWEEP_AT) this.sweep(now);
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return Promise.resolve({ count: window.count, ttlMs: window.resetAt - now });
  }

  count(key: string): Promise<number> {
    const window = this.windows.get(key);
    return Promise.resolve(window && window.resetAt > this.clock() ? window.count : 0);
  }

  clear(key: string): Promise<void> {
    this.windows.delete(key);
    return Promise.resolve();
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * One named limit (intents, sign-ins, token checks) counted in fixed windows per key (a client
 * address, an e-mail). The store is shared by every API instance, so a client that switches
 * instances still gets the limit once in total.
 */
export class FixedWindowCounter {
  constructor(
    private readonly store: WindowStore,
    private readonly name: string,
    private readonly windowMs: number,
  ) {}

  /** Counts one attempt for `key`; true while the key is within `max` attempts this window. */
  async hit(key: string, max: number): Promise<boolean> {
    const { count } = await this.store.increment(`${this.name}:${key}`, this.windowMs);
    return count <= max;
  }

  /** Whether `key` is still under `max` attempts this window, without counting one. */
  async within(key: string, max: number): Promise<boolean> {
    return (await this.store.count(`${this.name}:${key}`)) < max;
  }

  /** Counts one attempt for `key` (its result is read later through `within`). */
  async note(key: string): Promise<void> {
    await this.store.increment(`${this.name}:${key}`, this.windowMs);
  }

  async clear(key: string): Promise<void> {
    await this.store.clear(`${this.name}:${key}`);
  }
}

/** The 429 every limiter answers with, carrying a message written for a person. */
export function tooManyRequests(message: string): HttpException {
  return new HttpException({ statusCode: HttpStatus.TOO_MANY_REQUESTS, error: 'Too Many Requests', message }, HttpStatus.TOO_MANY_REQUESTS);
}
