import { STRIPE_SIGNATURE_HEADER, stripeSignatureFor } from '../stripe/stripe-webhooks';

/** The headers of a sandbox event's delivery to our webhook endpoint: signed like Stripe's, with `secret`, now. */
export function sandboxDeliveryHeaders(payload: string, secret: string): Record<string, string> {
  return { 'content-type': 'application/json', [STRIPE_SIGNATURE_HEADER]: stripeSignatureFor(payload, secret) };
}
