import { Injectable } from '@nestjs/common';
import { FixedWindowCounter, tooManyRequests, WindowStore } from '../../common/fixed-window-counter';
import { AppConfig } from '@core/config/app-config';

/**
 * Limits on sign-in link requests, per client address and per e-mail address (nobody's inbox is
 * flooded from many addresses), counted in Redis across every API instance. Every request counts,
 * whether or not the address bought anything, so the limit reveals nothing either.
 */
@Injectable()
export class AccountLinkLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(
    private readonly config: AppConfig,
    windows: WindowStore,
  ) {
    this.counter = new FixedWindowCounter(windows, 'account-links', config.RATE_LIMIT_WINDOW_MS);
  }

  async consume(clientIp: string, emailNormalized: string): Promise<void> {
    const within = await this.counter.hitClientAndEmail(clientIp, emailNormalized, {
      perClient: this.config.RATE_LIMIT_ACCOUNT_LINKS_PER_CLIENT,
      perEmail: this.config.RATE_LIMIT_ACCOUNT_LINKS_PER_EMAIL,
    });
    if (within.client && within.email) return;
    throw tooManyRequests(
      within.client
        ? 'Too many sign-in links were asked for this email address. Please check your inbox or wait a few minutes.'
        : 'Too many sign-in link requests from this device. Please wait a few minutes and try again.',
    );
  }
}
