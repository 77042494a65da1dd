import { Injectable } from '@nestjs/common';
import { ClientLimiter } from '../../common/client-limiter';
import { FixedWindowCounter, tooManyRequests, WindowStore } from '../../common/fixed-window-counter';
import { RateLimitConfig } from '@core/config/config-sections';

/**
 * Limits on intent creation, per client address and per e-mail address: card testers try many
 * cards from one address, or spread one e-mail over many. Subscription confirmations (which
 * charge the card) are limited per client and per checkout in the same way. Counted in Redis,
 * across every API instance.
 */
@Injectable()
export class IntentRateLimiter {
  private readonly intents: ClientLimiter;
  private readonly confirmations: FixedWindowCounter;

  constructor(
    private readonly config: RateLimitConfig,
    windows: WindowStore,
  ) {
    this.intents = new ClientLimiter(windows, {
      name: 'intents',
      windowMs: config.RATE_LIMIT_WINDOW_MS,
      perClient: {
        max: config.RATE_LIMIT_INTENTS_PER_CLIENT,
        message: 'Too many payment attempts from this device. Please wait a few minutes and try again.',
      },
      perEmail: {
        max: config.RATE_LIMIT_INTENTS_PER_EMAIL,
        message: 'Too many payment attempts for this email address. Please wait a few minutes and try again.',
      },
    });
    this.confirmations = new FixedWindowCounter(windows, 'confirmations', config.RATE_LIMIT_WINDOW_MS);
  }

  /** Counts one subscription confirmation; throws 429 past the client's or the checkout's limit. */
  async consumeConfirmation(clientIp: string, setupIntentId: string): Promise<void> {
    const [client, order] = await Promise.all([
      this.confirmations.hit(`ip:${clientIp}`, this.config.RATE_LIMIT_INTENTS_PER_CLIENT),
      this.confirmations.hit(`order:${setupIntentId}`, this.config.RATE_LIMIT_CONFIRMATIONS_PER_ORDER),
    ]);
    if (client && order) return;
    throw tooManyRequests(
      client
        ? 'Too many attempts to confirm this payment. Please wait a few minutes and try again.'
        : 'Too many payment attempts from this device. Please wait a few minutes and try again.',
    );
  }

  /** Counts one attempt; throws 429 when either limit is exceeded. */
  consume(clientIp: string, emailNormalized: string): Promise<void> {
    return this.intents.consume(clientIp, emailNormalized);
  }
}
