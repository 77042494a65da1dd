import type { ParsedWebhook, PaymentEvent, PaymentGateway, PaymentObjectKind, WebhookRecord } from '../../payment-gateway';
import { otherApiVersionOf, stripeEventOf } from './stripe-events';
import { stripeIdKind } from './stripe-ids';
import { STRIPE_SIGNATURE_HEADER, verifyStripeWebhook } from './stripe-webhooks';

/** The part of the port that reads Stripe's wire format: ids, signed webhooks and their events. */
type WireReading = Pick<PaymentGateway, 'webhookSignatureHeader' | 'kindOfId' | 'parseWebhook' | 'eventOf'>;

/**
 * What the Stripe adapter and the sandbox share because the sandbox speaks Stripe's wire format
 * on purpose: its ids, the signature header and its check, and its events read in neutral terms.
 * Each extends it with the secret its webhooks are signed with and the event types it acts on.
 */
export abstract class StripeWire implements WireReading {
  readonly webhookSignatureHeader = STRIPE_SIGNATURE_HEADER;

  protected constructor(
    private readonly webhookSecret: string,
    /** The event types read; others are stored and skipped (eventOf answers null). */
    private readonly actsOn: (type: string) => boolean,
  ) {}

  kindOfId(id: string): PaymentObjectKind | null {
    return stripeIdKind(id);
  }

  parseWebhook(rawBody: Buffer | undefined, signature: string | string[] | undefined): ParsedWebhook {
    const record = verifyStripeWebhook(rawBody, signature, this.webhookSecret);
    return { record, event: this.eventOf(record), otherApiVersion: otherApiVersionOf(record) };
  }

  eventOf(record: WebhookRecord): PaymentEvent | null {
    return this.actsOn(record.type) ? stripeEventOf(record) : null;
  }
}
