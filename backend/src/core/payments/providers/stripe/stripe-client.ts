import Stripe from 'stripe';
import type { StripeConfig } from '../../../config/config-sections';

/**
 * The one place the API version is pinned: every request and the shapes this adapter reads are
 * this version's (stripe-node 23.1.0's own). Webhook events come in the endpoint's version, which
 * `stripeSubjectOf` reads in older shapes too; a different one is counted and logged.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** The Stripe SDK client of this configuration (host, port and protocol point tests at a fake). */
export function stripeClient(config: StripeConfig): Stripe {
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
