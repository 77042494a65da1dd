import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/** Beyond this many tracked keys, expired windows are swept before a new key is added. */
const SWEEP_AT = 10_000;

/**
 * Fixed-window limits on admin sign-in attempts, per client address and per e-mail address
 * (password guessing from one place, or spread over many). Checked before any password hashing,
 * so a flood costs us no argon2 work. In memory, like the app's other rate limits.
 */
@Injectable()
export class LoginRateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly config: AppConfig) {}

  /** Counts one attempt; throws 429 when either limit is exceeded. */
  consume(clientIp: string, emailNormalized: string, now = Date.now()): void {
    const perClient = this.hit(`ip:${clientIp}`, this.config.ADMIN_LOGINS_PER_CLIENT, now);
    const perEmail = this.hit(`email:${emailNormalized}`, this.config.ADMIN_LOGINS_PER_EMAIL, now);
    if (perClient && perEmail) return;
    const minutes = Math.max(1, Math.ceil(this.config.ADMIN_LOGIN_WINDOW_MS / 60_000));
    throw new HttpException(
      {
        statusCode: HttpStatus.TOO_MANY_REQUESTS,
        error: 'Too Many Requests',
        message: `Too many sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }

  private hit(key: string, max: number, now: number): boolean {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (!window && this.windows.size >= SWEEP_AT) this.sweep(now);
      window = { count: 0, resetAt: now + this.config.ADMIN_LOGIN_WINDOW_MS };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count <= max;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
