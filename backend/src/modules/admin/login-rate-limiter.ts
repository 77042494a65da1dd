import { Injectable } from '@nestjs/common';
import { FixedWindowCounter, tooManyRequests, WindowStore } from '../../common/fixed-window-counter';
import { RateLimitConfig } from '@core/config/config-sections';

/**
 * Limits on admin sign-in attempts, per client address and per e-mail address (password
 * guessing from one place, or spread over many). Checked before any password hashing, so a
 * flood costs us no argon2 work. Counted in Redis, across every API instance.
 *
 * Per client every attempt counts. Per e-mail only failed attempts count, and a successful
 * sign-in ends that address's window: guesses made elsewhere stop counting against the real
 * admin once they have signed in.
 */
@Injectable()
export class LoginRateLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(
    private readonly config: RateLimitConfig,
    windows: WindowStore,
  ) {
    this.counter = new FixedWindowCounter(windows, 'sign-in', config.ADMIN_LOGIN_WINDOW_MS);
  }

  /** Counts one attempt from the client; throws 429 when the client or the address is over its limit. */
  async consume(clientIp: string, emailNormalized: string): Promise<void> {
    const [client, email] = await Promise.all([
      this.counter.hit(`ip:${clientIp}`, this.config.ADMIN_LOGINS_PER_CLIENT),
      this.counter.within(`email:${emailNormalized}`, this.config.ADMIN_LOGINS_PER_EMAIL),
    ]);
    if (client && email) return;
    const minutes = Math.max(1, Math.ceil(this.config.ADMIN_LOGIN_WINDOW_MS / 60_000));
    throw tooManyRequests(`Too many sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`);
  }

  /** A wrong password or an unknown address: counts against the address. */
  failed(emailNormalized: string): Promise<void> {
    return this.counter.note(`email:${emailNormalized}`);
  }

  /** A successful sign-in: the address's failed attempts no longer count. */
  succeeded(emailNormalized: string): Promise<void> {
    return this.counter.clear(`email:${emailNormalized}`);
  }
}
