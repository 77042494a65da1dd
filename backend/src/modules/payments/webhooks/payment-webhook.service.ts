import { BadRequestException, Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { findInputHazard } from '../../../common/input-hazard';
import { PaymentEventRepository } from '@core/database/repositories/payment-event.repository';
import { JOBS } from '@contracts/jobs';
import { PAYMENT_GATEWAY, ParsedWebhook, PaymentGateway } from '@core/payments/payment-gateway';
import { answerProviderErrors } from '../../../common/provider-answers';
import { STRIPE_API_VERSION } from '@core/payments/providers/stripe/stripe-client';
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
export class PaymentWebhookService {
  private readonly logger = new Logger(PaymentWebhookService.name);
  /** API versions already logged by this process: each is told once, the counter says how often. */
  private readonly versionsTold = new Set<string>();

  constructor(
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly events: PaymentEventRepository,
    private readonly metrics: PaymentMetrics,
  ) {}

  async receive(rawBody: Buffer | undefined, headers: IncomingHttpHeaders): Promise<WebhookReceipt> {
    let parsed: ParsedWebhook;
    try {
      parsed = await this.verify(rawBody, headers[this.gateway.webhookSignatureHeader]);
    } catch (err) {
      if (err instanceof BadRequestException) this.metrics.webhook('refused');
      throw err;
    }
    const event = parsed.record;
    const stored = await this.events.insertOnceOwing(event.id, event.type, event, { name: JOBS.paymentEvent, data: { eventId: event.id } });
    const receipt: WebhookReceipt = { received: true, duplicate: !stored };
    this.metrics.webhook(receipt.duplicate ? 'duplicate' : 'stored');
    // Counted once per event: a redelivery of one already stored is not another event.
    if (stored && parsed.otherApiVersion) this.otherApiVersion(parsed.otherApiVersion);
    return receipt;
  }

  /**
   * An event written in another API version is read all the same (either invoice shape), but its
   * endpoint should move: counted each time, and told once per version per process.
   */
  private otherApiVersion(version: string): void {
    this.metrics.otherApiVersionEvent(version);
    if (this.versionsTold.has(version)) return;
    this.versionsTold.add(version);
    this.logger.warn(
      { version, pinned: STRIPE_API_VERSION },
      `Stripe webhook events arrive in API version ${version}, not ${STRIPE_API_VERSION}. Stripe cannot change an endpoint's version: delete the endpoint in the Stripe dashboard, run npm run stripe:setup for a new one on ${STRIPE_API_VERSION} and put the secret it prints in STRIPE_WEBHOOK_SECRET; with stripe listen, add --latest`,
    );
  }

  private async verify(rawBody: Buffer | undefined, signature: string | string[] | undefined): Promise<ParsedWebhook> {
    // A refused signature or shape is a 400 with the gateway's reason.
    const parsed = await answerProviderErrors(() => this.gateway.parseWebhook(rawBody, signature), { refused: 400 });
    // Signed is not the same as storable: Postgres refuses NUL and unpaired surrogates in jsonb.
    if (findInputHazard(parsed.record, MAX_EVENT_DEPTH, { nul: true }))
      throw new BadRequestException('The webhook event contains data that cannot be stored.');
    return parsed;
  }
}
