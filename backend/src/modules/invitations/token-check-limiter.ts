import { Injectable } from '@nestjs/common';
import { FixedWindowCounter, tooManyRequests, WindowStore } from '../../common/fixed-window-counter';
import { AppConfig } from '@core/config/app-config';

/**
 * Limit on token validations per client address, so tokens cannot be guessed by brute force
 * (with 256-bit tokens it is hopeless anyway; the limit also keeps the probing cheap for us).
 * Every check counts, found or not, on whichever API instance (the count is kept in Redis).
 */
@Injectable()
export class TokenCheckLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(
    private readonly config: AppConfig,
    windows: WindowStore,
  ) {
    this.counter = new FixedWindowCounter(windows, 'token-checks', config.RATE_LIMIT_WINDOW_MS);
  }

  /** Counts one validation; throws 429 beyond RATE_LIMIT_TOKEN_CHECKS per RATE_LIMIT_WINDOW_MS. */
  async consume(clientIp: string): Promise<void> {
    if (await this.counter.hit(clientIp, this.config.RATE_LIMIT_TOKEN_CHECKS)) return;
    throw tooManyRequests('Too many access link checks from this device. Please wait a minute and try again.');
  }
}
