import Stripe from 'stripe';
import type { AppConfig } from '../../../config/app-config';

/** Pinned: webhooks and responses keep this shape until we deliberately move. */
export const STRIPE_API_VERSION = '2025-02-24.acacia' as const;

/** The Stripe SDK client of this configuration (host, port and protocol point tests at a fake). */
export function stripeClient(config: AppConfig): Stripe {
  return new Stripe(config.STRIPE_SECRET_KEY ?? '', {
    apiVersion: STRIPE_API_VERSION,
    host: config.STRIPE_API_HOST,
    port: config.STRIPE_API_PORT,
    protocol: config.STRIPE_API_PROTOCOL,
    // Safe to retry: every write carries an idempotency key.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
}
