import { Injectable } from '@nestjs/common';
import { FixedWindowCounter, tooManyRequests } from '../../common/fixed-window-counter';
import { AppConfig } from '../../config/app-config';

/**
 * Limits on admin sign-in attempts, per client address and per e-mail address (password
 * guessing from one place, or spread over many). Checked before any password hashing, so a
 * flood costs us no argon2 work.
 */
@Injectable()
export class LoginRateLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(private readonly config: AppConfig) {
    this.counter = new FixedWindowCounter(config.ADMIN_LOGIN_WINDOW_MS);
  }

  /** Counts one attempt; throws 429 when either limit is exceeded. */
  consume(clientIp: string, emailNormalized: string, now = Date.now()): void {
    const perClient = this.counter.hit(`ip:${clientIp}`, this.config.ADMIN_LOGINS_PER_CLIENT, now);
    const perEmail = this.counter.hit(`email:${emailNormalized}`, this.config.ADMIN_LOGINS_PER_EMAIL, now);
    if (perClient && perEmail) return;
    const minutes = Math.max(1, Math.ceil(this.config.ADMIN_LOGIN_WINDOW_MS / 60_000));
    throw tooManyRequests(`Too many sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`);
  }
}
