import { BadRequestException, Injectable } from '@nestjs/common';
import Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { findInputHazard } from '../../../common/input-hazard';
import { AppConfig } from '@core/config/app-config';
import { PaymentEventRepository } from '@core/database/repositories/payment-event.repository';
import { JOBS } from '@contracts/jobs';
import { owe } from '@core/queue/owe';

/** Stripe's default: an event signed longer ago than this is refused (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Stripe's events nest about ten levels; far deeper would overflow JSON.stringify before storing. */
const MAX_EVENT_DEPTH = 32;
/** Stripe's ids and event types are printable ASCII without spaces. */
const PRINTABLE = /^[\x21-\x7e]+$/;

export interface WebhookReceipt {
  received: true;
  duplicate: boolean;
}

/**
 * Receives provider events: checks the signature on the raw bytes, stores the event once under
 * its id and owes the job that applies it, in one transaction. Nothing else happens on the
 * request, so Stripe gets its 2xx fast and a redelivery is a no-op.
 */
@Injectable()
export class StripeWebhookService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: PaymentEventRepository,
    private readonly config: AppConfig,
  ) {}

  async receive(rawBody: Buffer | undefined, signature: string | undefined): Promise<WebhookReceipt> {
    if (!signature) throw new BadRequestException('Missing Stripe-Signature header.');
    if (!rawBody?.length) throw new BadRequestException('The webhook body is empty.');
    const event = this.verify(rawBody, signature);
    return this.dataSource.transaction(async (manager) => {
      const stored: unknown[] = await this.events.insertOnce(manager, event.id, event.type, event);
      if (stored.length === 0) return { received: true, duplicate: true };
      await owe(manager, [{ name: JOBS.paymentEvent, data: { eventId: event.id } }]);
      return { received: true, duplicate: false };
    });
  }

  private verify(rawBody: Buffer, signature: string): Stripe.Event {
    // Stripe's secret with keys configured; otherwise the sandbox signs its own events.
    const secret =
      this.config.PAYMENT_PROVIDER === 'stripe' ? (this.config.STRIPE_WEBHOOK_SECRET as string) : this.config.SANDBOX_WEBHOOK_SECRET;
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
    } catch (err) {
      // The signature is checked before the body is parsed: any other error is a body that is not JSON.
      if (!(err instanceof Stripe.errors.StripeSignatureVerificationError))
        throw new BadRequestException('The webhook body is not valid JSON.');
      if (/tolerance/i.test(err.message))
        throw new BadRequestException(`Webhook timestamp is more than ${WEBHOOK_TOLERANCE_SECONDS} seconds old.`);
      throw new BadRequestException('Webhook signature does not match.');
    }
    if (
      typeof event?.id !== 'string' ||
      typeof event.type !== 'string' ||
      !event.id ||
      event.id.length > 255 ||
      !PRINTABLE.test(event.id) ||
      !PRINTABLE.test(event.type)
    ) {
      throw new BadRequestException('The webhook body is not a Stripe event.');
    }
    // Signed is not the same as storable: Postgres refuses NUL and unpaired surrogates in jsonb.
    if (findInputHazard(event, MAX_EVENT_DEPTH, { nul: true }))
      throw new BadRequestException('The webhook event contains data that cannot be stored.');
    return event;
  }
}
