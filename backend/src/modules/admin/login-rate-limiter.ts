import { Injectable } from '@nestjs/common';
import { FixedWindowCounter, tooManyRequests, WindowStore } from '../../common/fixed-window-counter';
import { AppConfig } from '@core/config/app-config';

/**
 * Limits on admin sign-in attempts, per client address and per e-mail address (password
 * guessing from one place, or spread over many). Checked before any password hashing, so a
 * flood costs us no argon2 work. Counted in Redis, across every API instance.
 */
@Injectable()
export class LoginRateLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(
    private readonly config: AppConfig,
    windows: WindowStore,
  ) {
    this.counter = new FixedWindowCounter(windows, 'sign-in', config.ADMIN_LOGIN_WINDOW_MS);
  }

  /** Counts one attempt; throws 429 when either limit is exceeded. */
  async consume(clientIp: string, emailNormalized: string): Promise<void> {
    const within = await this.counter.hitClientAndEmail(clientIp, emailNormalized, {
      perClient: this.config.ADMIN_LOGINS_PER_CLIENT,
      perEmail: this.config.ADMIN_LOGINS_PER_EMAIL,
    });
    if (within.client && within.email) return;
    const minutes = Math.max(1, Math.ceil(this.config.ADMIN_LOGIN_WINDOW_MS / 60_000));
    throw tooManyRequests(`Too many sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`);
  }
}
