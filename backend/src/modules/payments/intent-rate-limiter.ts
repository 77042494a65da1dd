import { Injectable } from '@nestjs/common';
import { FixedWindowCounter, tooManyRequests, WindowStore } from '../../common/fixed-window-counter';
import { AppConfig } from '@core/config/app-config';

/**
 * Limits on intent creation, per client address and per e-mail address: card testers try many
 * cards from one address, or spread one e-mail over many. Counted in Redis, across every API instance.
 */
@Injectable()
export class IntentRateLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(
    private readonly config: AppConfig,
    windows: WindowStore,
  ) {
    this.counter = new FixedWindowCounter(windows, 'intents', config.RATE_LIMIT_WINDOW_MS);
  }

  /** Counts one attempt; throws 429 when either limit is exceeded. */
  async consume(clientIp: string, emailNormalized: string): Promise<void> {
    const within = await this.counter.hitClientAndEmail(clientIp, emailNormalized, {
      perClient: this.config.RATE_LIMIT_INTENTS_PER_CLIENT,
      perEmail: this.config.RATE_LIMIT_INTENTS_PER_EMAIL,
    });
    if (within.client && within.email) return;
    throw tooManyRequests(
      within.email
        ? 'Too many payment attempts from this device. Please wait a few minutes and try again.'
        : 'Too many payment attempts for this email address. Please wait a few minutes and try again.',
    );
  }
}
