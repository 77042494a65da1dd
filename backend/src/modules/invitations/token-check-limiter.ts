import { Injectable } from '@nestjs/common';
import { FixedWindowCounter, tooManyRequests } from '../../common/fixed-window-counter';
import { AppConfig } from '../../config/app-config';

/**
 * Limit on token validations per client address, so tokens cannot be guessed by brute force
 * (with 256-bit tokens it is hopeless anyway; the limit also keeps the probing cheap for us).
 * Every check counts, found or not.
 */
@Injectable()
export class TokenCheckLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(private readonly config: AppConfig) {
    this.counter = new FixedWindowCounter(config.RATE_LIMIT_WINDOW_MS);
  }

  /** Counts one validation; throws 429 beyond RATE_LIMIT_TOKEN_CHECKS per RATE_LIMIT_WINDOW_MS. */
  consume(clientIp: string, now = Date.now()): void {
    if (this.counter.hit(clientIp, this.config.RATE_LIMIT_TOKEN_CHECKS, now)) return;
    throw tooManyRequests('Too many access link checks from this device. Please wait a minute and try again.');
  }
}
