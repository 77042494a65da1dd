import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/** Beyond this many tracked clients, expired windows are swept before a new one is added. */
const SWEEP_AT = 10_000;

/**
 * Fixed-window limit on token validations per client address, so tokens cannot be guessed by
 * brute force (with 256-bit tokens it is hopeless anyway; the limit also keeps the probing
 * cheap for us). Every check counts, found or not. In memory, like the app's other rate limits.
 */
@Injectable()
export class TokenCheckLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly config: AppConfig) {}

  /** Counts one validation; throws 429 beyond RATE_LIMIT_TOKEN_CHECKS per RATE_LIMIT_WINDOW_MS. */
  consume(clientIp: string, now = Date.now()): void {
    let window = this.windows.get(clientIp);
    if (!window || window.resetAt <= now) {
      if (!window && this.windows.size >= SWEEP_AT) this.sweep(now);
      window = { count: 0, resetAt: now + this.config.RATE_LIMIT_WINDOW_MS };
      this.windows.set(clientIp, window);
    }
    window.count += 1;
    if (window.count <= this.config.RATE_LIMIT_TOKEN_CHECKS) return;
    throw new HttpException(
      {
        statusCode: HttpStatus.TOO_MANY_REQUESTS,
        error: 'Too Many Requests',
        message: 'Too many access link checks from this device. Please wait a minute and try again.',
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
