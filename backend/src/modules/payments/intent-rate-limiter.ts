import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/** Beyond this many tracked keys, expired windows are swept before a new key is added. */
const SWEEP_AT = 10_000;

/**
 * Fixed-window limits on intent creation, per client address and per e-mail address: card
 * testers try many cards from one address, or spread one e-mail over many. In memory, like the
 * app's other rate limits; each API instance counts on its own.
 */
@Injectable()
export class IntentRateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly config: AppConfig) {}

  /** Counts one attempt; throws 429 when either limit is exceeded. */
  consume(clientIp: string, emailNormalized: string, now = Date.now()): void {
    const perClient = this.hit(`ip:${clientIp}`, this.config.RATE_LIMIT_INTENTS_PER_CLIENT, now);
    const perEmail = this.hit(`email:${emailNormalized}`, this.config.RATE_LIMIT_INTENTS_PER_EMAIL, now);
    if (perClient && perEmail) return;
    throw new HttpException(
      {
        statusCode: HttpStatus.TOO_MANY_REQUESTS,
        error: 'Too Many Requests',
        message: perEmail
          ? 'Too many payment attempts from this device. Please wait a few minutes and try again.'
          : 'Too many payment attempts for this email address. Please wait a few minutes and try again.',
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }

  private hit(key: string, max: number, now: number): boolean {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (!window && this.windows.size >= SWEEP_AT) this.sweep(now);
      window = { count: 0, resetAt: now + this.config.RATE_LIMIT_WINDOW_MS };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count <= max;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
