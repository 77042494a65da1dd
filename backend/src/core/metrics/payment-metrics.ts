import { Global, Injectable, Module } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';

/** Decline reasons kept as labels (Stripe's decline codes); any other is 'other', so labels stay few. */
const REASONS = new Set([
  'generic_decline',
  'insufficient_funds',
  'lost_card',
  'stolen_card',
  'expired_card',
  'incorrect_cvc',
  'processing_error',
  'authentication_required',
  'card_declined',
  'payment_intent_authentication_failure',
  'fraudulent',
  'do_not_honor',
]);

function declineReason(code: unknown): string {
  return typeof code === 'string' && REASONS.has(code) ? code : 'other';
}

/**
 * The money path as on-call counts it, in whichever process sees each step (each process has its
 * own registry, served with its other metrics): checkout intents and provider webhooks in the
 * API; payments that succeeded or failed (by decline reason) and refunds in the worker, which
 * applies the provider's events. No ids, amounts or people in labels.
 */
@Injectable()
export class PaymentMetrics {
  readonly registry = new Registry();
  private readonly intents = new Counter({
    name: 'funnel_checkout_intents_total',
    help: 'Checkouts started: card setups (subscriptions), payment intents (one-time plans) and one-click charges',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  private readonly webhooks = new Counter({
    name: 'funnel_payment_webhooks_total',
    help: 'Provider webhooks received: stored, duplicate (already stored) or refused (bad signature or shape)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly payments = new Counter({
    name: 'funnel_payments_total',
    help: 'Orders learned paid (succeeded) or failed, failures by decline reason, as the worker applies provider events',
    labelNames: ['outcome', 'reason'],
    registers: [this.registry],
  });
  private readonly eventVersions = new Counter({
    name: 'funnel_stripe_event_version_total',
    help: 'Stripe webhook events stored that were written in an API version other than the pinned one, by version',
    labelNames: ['version'],
    registers: [this.registry],
  });
  private readonly refunds = new Counter({
    name: 'funnel_refunds_total',
    help: 'Refunds recorded, by reason (refund, or a lost dispute)',
    labelNames: ['reason'],
    registers: [this.registry],
  });

  private readonly unrepaired = new Gauge({
    name: 'funnel_payments_without_provider_id',
    help: "First payments still recorded under their order's own id after the worker's last repair pass: the provider has nothing paid for their orders, an operator looks at them",
    registers: [this.registry],
  });

  intentCreated(kind: 'setup' | 'payment' | 'one_click'): void {
    this.intents.inc({ kind });
  }

  webhook(outcome: 'stored' | 'duplicate' | 'refused'): void {
    this.webhooks.inc({ outcome });
  }

  /** `version`: a Stripe API version name, or 'unrecognised' (see otherApiVersionOf), so labels stay few. */
  otherApiVersionEvent(version: string): void {
    this.eventVersions.inc({ version });
  }

  paymentSucceeded(): void {
    this.payments.inc({ outcome: 'succeeded', reason: '' });
  }

  paymentFailed(code: unknown): void {
    this.payments.inc({ outcome: 'failed', reason: declineReason(code) });
  }

  paymentsLeftWithoutProviderId(count: number): void {
    this.unrepaired.set(count);
  }

  refundRecorded(reason: string): void {
    this.refunds.inc({ reason: reason === 'dispute' ? 'dispute' : 'refund' });
  }
}

/** One PaymentMetrics per process, for the API's and the worker's modules alike. */
@Global()
@Module({ providers: [PaymentMetrics], exports: [PaymentMetrics] })
export class PaymentMetricsModule {}
