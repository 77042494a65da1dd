import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { findInputHazard } from '../../../common/input-hazard';
import { PaymentEventRepository } from '@core/database/repositories/payment-event.repository';
import { JOBS } from '@contracts/jobs';
import { PAYMENT_GATEWAY, PaymentGateway, WebhookRecord, WebhookRefusedError } from '@core/payments/payment-gateway';
import { PaymentMetrics } from '@core/metrics/payment-metrics';

/** Stripe's events nest about ten levels; far deeper would overflow JSON.stringify before storing. */
const MAX_EVENT_DEPTH = 32;

export interface WebhookReceipt {
  received: true;
  duplicate: boolean;
}

/**
 * Receives provider events: the configured gateway checks the signature on the raw bytes, then the
 * event is stored once under its id and the job that applies it is owed, in one statement.
 * Nothing else happens on the request, so the provider gets its 2xx fast and a redelivery is a no-op.
 */
@Injectable()
export class StripeWebhookService {
  constructor(
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly events: PaymentEventRepository,
    private readonly metrics: PaymentMetrics,
  ) {}

  async receive(rawBody: Buffer | undefined, headers: IncomingHttpHeaders): Promise<WebhookReceipt> {
    let event: WebhookRecord;
    try {
      event = this.verify(rawBody, headers[this.gateway.webhookSignatureHeader]);
    } catch (err) {
      if (err instanceof BadRequestException) this.metrics.webhook('refused');
      throw err;
    }
    const stored = await this.events.insertOnceOwing(event.id, event.type, event, { name: JOBS.paymentEvent, data: { eventId: event.id } });
    const receipt: WebhookReceipt = { received: true, duplicate: !stored };
    this.metrics.webhook(receipt.duplicate ? 'duplicate' : 'stored');
    return receipt;
  }

  private verify(rawBody: Buffer | undefined, signature: string | string[] | undefined): WebhookRecord {
    let event: WebhookRecord;
    try {
      event = this.gateway.parseWebhook(rawBody, signature).record;
    } catch (err) {
      if (err instanceof WebhookRefusedError) throw new BadRequestException(err.message);
      throw err;
    }
    // Signed is not the same as storable: Postgres refuses NUL and unpaired surrogates in jsonb.
    if (findInputHazard(event, MAX_EVENT_DEPTH, { nul: true }))
      throw new BadRequestException('The webhook event contains data that cannot be stored.');
    return event;
  }
}
