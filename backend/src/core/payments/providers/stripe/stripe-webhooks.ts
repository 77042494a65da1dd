import Stripe from 'stripe';
import { WebhookRecord, WebhookRefusedError } from '../../payment-gateway';

/** Stripe's signature header: `t=<unix time>,v1=<HMAC-SHA256 of "<t>.<raw body>">`. */
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';

/** Stripe's default: an event signed longer ago than this is refused (replay protection). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Stripe's ids and event types are printable ASCII without spaces. */
const PRINTABLE = /^[\x21-\x7e]+$/;

/** Checks a Stripe-signed webhook (Stripe's, or the sandbox's) against `secret` and reads its event. */
export function verifyStripeWebhook(rawBody: Buffer | undefined, signature: string | string[] | undefined, secret: string): WebhookRecord {
  if (!signature) throw new WebhookRefusedError('Missing Stripe-Signature header.');
  if (!rawBody?.length) throw new WebhookRefusedError('The webhook body is empty.');
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (err) {
    // The signature is checked before the body is parsed: any other error is a body that is not JSON.
    if (!(err instanceof Stripe.errors.StripeSignatureVerificationError))
      throw new WebhookRefusedError('The webhook body is not valid JSON.');
    if (/tolerance/i.test(err.message))
      throw new WebhookRefusedError(`Webhook timestamp is more than ${WEBHOOK_TOLERANCE_SECONDS} seconds old.`);
    throw new WebhookRefusedError('Webhook signature does not match.');
  }
  if (
    typeof event?.id !== 'string' ||
    typeof event.type !== 'string' ||
    !event.id ||
    event.id.length > 255 ||
    !PRINTABLE.test(event.id) ||
    !PRINTABLE.test(event.type)
  ) {
    throw new WebhookRefusedError('The webhook body is not a Stripe event.');
  }
  return event as unknown as WebhookRecord;
}

/** The signature header Stripe would send with `payload`, signed now with `secret`. */
export function stripeSignatureFor(payload: string, secret: string): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret });
}
