import { Injectable } from '@nestjs/common';
import { FixedWindowCounter, tooManyRequests, WindowStore } from '../../common/fixed-window-counter';
import { AppConfig } from '@core/config/app-config';

/**
 * Limit on coupon quotes per client address: codes are short words an admin chose, so a script
 * could otherwise try a dictionary of them. Every quote counts, valid or not, on whichever API
 * instance (the count is kept in Redis).
 */
@Injectable()
export class CouponCheckLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(
    private readonly config: AppConfig,
    windows: WindowStore,
  ) {
    this.counter = new FixedWindowCounter(windows, 'coupon-checks', config.RATE_LIMIT_WINDOW_MS);
  }

  /** Counts one quote; throws 429 beyond RATE_LIMIT_COUPON_CHECKS per RATE_LIMIT_WINDOW_MS. */
  async consume(clientIp: string): Promise<void> {
    if (await this.counter.hit(clientIp, this.config.RATE_LIMIT_COUPON_CHECKS)) return;
    throw tooManyRequests('Too many coupon codes tried from this device. Please wait a minute and try again.');
  }
}
