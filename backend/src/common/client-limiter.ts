import type { FactoryProvider } from '@nestjs/common';
import { RateLimitConfig } from '@core/config/config-sections';
import { FixedWindowCounter, tooManyRequests, WindowStore } from './fixed-window-counter';

/** One limit, and the message a person reads when over it. */
interface Limit {
  max: number;
  message: string;
}

/** What one ClientLimiter counts: per client address, and optionally per e-mail address as well. */
export interface ClientLimits {
  /** The counter's name in the shared store: one per use, so uses never count against each other. */
  name: string;
  windowMs: number;
  perClient: Limit;
  /** Also per normalised e-mail address, so nobody's inbox is flooded from many client addresses. */
  perEmail?: Limit;
}

/**
 * Attempts per client address (and per e-mail address where a use names one) in fixed windows
 * counted in Redis, across every API instance; beyond a limit, a 429 with that limit's message.
 * Every attempt counts, whatever its outcome, so the limit reveals nothing about the outcome.
 */
export class ClientLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(
    windows: WindowStore,
    private readonly limits: ClientLimits,
  ) {
    this.counter = new FixedWindowCounter(windows, limits.name, limits.windowMs);
  }

  /** Counts one attempt; throws 429 when the client, or the address (for limits with perEmail), is over its limit. */
  async consume(clientIp: string, emailNormalized?: string): Promise<void> {
    const { name, perClient, perEmail } = this.limits;
    if (perEmail === undefined) {
      if (await this.counter.hit(clientIp, perClient.max)) return;
      throw tooManyRequests(perClient.message);
    }
    // A use limited per address that forgot to name it would count under the client alone.
    if (emailNormalized === undefined) throw new Error(`The ${name} limit counts per e-mail address: pass one`);
    const [client, email] = await Promise.all([
      this.counter.hit(`ip:${clientIp}`, perClient.max),
      this.counter.hit(`email:${emailNormalized}`, perEmail.max),
    ]);
    if (client && email) return;
    throw tooManyRequests(client ? perEmail.message : perClient.message);
  }
}

/** A ClientLimiter provided under `token`, its limits read from the settings. */
export function clientLimiterProvider(token: symbol, limits: (config: RateLimitConfig) => ClientLimits): FactoryProvider<ClientLimiter> {
  return {
    provide: token,
    inject: [RateLimitConfig, WindowStore],
    useFactory: (config: RateLimitConfig, windows: WindowStore) => new ClientLimiter(windows, limits(config)),
  };
}
