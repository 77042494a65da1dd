import { Injectable } from '@nestjs/common';
import { FixedWindowCounter, tooManyRequests } from '../../common/fixed-window-counter';
import { AppConfig } from '../../config/app-config';

/**
 * Limits on intent creation, per client address and per e-mail address: card testers try many
 * cards from one address, or spread one e-mail over many.
 */
@Injectable()
export class IntentRateLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(private readonly config: AppConfig) {
    this.counter = new FixedWindowCounter(config.RATE_LIMIT_WINDOW_MS);
  }

  /** Counts one attempt; throws 429 when either limit is exceeded. */
  consume(clientIp: string, emailNormalized: string, now = Date.now()): void {
    const perClient = this.counter.hit(`ip:${clientIp}`, this.config.RATE_LIMIT_INTENTS_PER_CLIENT, now);
    const perEmail = this.counter.hit(`email:${emailNormalized}`, this.config.RATE_LIMIT_INTENTS_PER_EMAIL, now);
    if (perClient && perEmail) return;
    throw tooManyRequests(
      perEmail
        ? 'Too many payment attempts from this device. Please wait a few minutes and try again.'
        : 'Too many payment attempts for this email address. Please wait a few minutes and try again.',
    );
  }
}
