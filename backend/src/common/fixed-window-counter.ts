import { HttpException, HttpStatus } from '@nestjs/common';

/** Beyond this many tracked keys, expired windows are swept before a new key is added. */
const SWEEP_AT = 10_000;

/**
 * Fixed-window attempt counting per key (a client address, an e-mail), in memory like the app's
 * other rate limits: each API instance counts on its own. Memory stays bounded: expired windows
 * are swept once many keys are tracked.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly windowMs: number) {}

  /** Counts one attempt for `key`; true while the key is within `max` attempts this window. */
  hit(key: string, max: number, now = Date.now()): boolean {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (!window && this.windows.size >= SWEEP_AT) this.sweep(now);
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count <= max;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/** The 429 every limiter answers with, carrying a message written for a person. */
export function tooManyRequests(message: string): HttpException {
  return new HttpException({ statusCode: HttpStatus.TOO_MANY_REQUESTS, error: 'Too Many Requests', message }, HttpStatus.TOO_MANY_REQUESTS);
}
