import { Inject, Injectable, Logger } from '@nestjs/common';
import { JOBS, REFUND_EFFECTS, RefundEffect, RefundRecordedPayload, SIDE_EFFECTS, SideEffectKind } from '@contracts/jobs';
import { ServerConfig } from '@core/config/config-sections';
import type { OrderRow } from '@core/database/repositories/order.repository';
import type { PaymentRow } from '@core/database/repositories/payment.repository';
import { RefundRepository, type RefundRow } from '@core/database/repositories/refund.repository';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { OnJob } from '../jobs/on-job.decorator';
import { AffiliateClient } from '../clients/affiliate.client';
import { Ga4MeasurementClient } from '../clients/ga4-measurement.client';
import { SmtpMailer } from '../clients/smtp-mailer.client';
import { buildRefundEmail } from '../messages/refund-email.message';
import { ProviderAnswer, ProviderCallLedger } from '../ledger/provider-call-ledger';
import { PaymentMetrics } from '@core/metrics/payment-metrics';
import { InstalmentStops } from './instalment-stops.service';

export type RefundEffectStatus =
  | 'sent'
  | 'done'
  | 'skipped: not configured'
  | 'skipped: no referral'
  | 'skipped: test order'
  | 'skipped: dispute'
  | 'skipped: access kept'
  | 'skipped: not a subscription'
  | 'skipped: nothing scheduled'
  | `failed: ${string}`;

interface Refunded {
  refund: RefundRow;
  order: OrderRow;
  payment: PaymentRow;
}

/**
 * The effects of a refund that succeeded (from admin, the provider's dashboard, or a lost
 * dispute), each through the side-effect ledger under `<kind>:<refund id>`, so a retried job or a
 * replayed webhook never repeats one: the buyer's refund e-mail, the affiliate commission
 * reversal and GA4's refund event (live orders only, as sales), and, when the refund ended the
 * membership's access (refunds.ends_access, decided by OrderLifecycle.refundRecorded), its subscription canceled
 * at once, or for an instalment plan its schedule (no later instalment is charged to a buyer
 * whose access ended; a partial refund keeps both). They run side by side; what became of each
 * is kept in `refunds.effects`.
 */
@Injectable()
export class RefundEffectsHandler {
  private readonly logger = new Logger(RefundEffectsHandler.name);

  constructor(
    private readonly refunds: RefundRepository,
    private readonly ledger: ProviderCallLedger,
    private readonly config: ServerConfig,
    private readonly affiliate: AffiliateClient,
    private readonly ga4: Ga4MeasurementClient,
    private readonly mailer: SmtpMailer,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly metrics: PaymentMetrics,
    private readonly instalments: InstalmentStops,
  ) {}

  @OnJob(JOBS.refundRecorded)
  async settle({ refundId }: RefundRecordedPayload): Promise<string> {
    const found = await this.refunds.forEffects(refundId);
    if (!found) return 'skipped: refund not found';
    if (found.refund.status !== 'succeeded') return 'skipped: not succeeded';
    // Counted on the first run of its effects (a retry finds some recorded already).
    if (Object.keys(found.refund.effects).length === 0) this.metrics.refundRecorded(found.refund.reason);
    const calls: Record<RefundEffect, () => Promise<RefundEffectStatus>> = {
      [SIDE_EFFECTS.refundEmail]: () => this.email(found),
      [SIDE_EFFECTS.affiliateRefund]: () => this.affiliateRefund(found),
      [SIDE_EFFECTS.ga4Refund]: () => this.ga4Refund(found),
      [SIDE_EFFECTS.cancelSubscription]: () => this.cancelSubscription(found),
    };
    const settled = await Promise.allSettled(
      REFUND_EFFECTS.map((kind) =>
        calls[kind]().then(async (status) => {
          await this.refunds.recordEffect(refundId, kind, status);
          return status;
        }),
      ),
    );
    const summary = REFUND_EFFECTS.map((kind, i) => {
      const result = settled[i];
      return `${kind}=${result.status === 'fulfilled' ? result.value : 'retrying'}`;
    });
    this.logger.log({ refundId, orderId: found.order.id, effects: summary }, 'Refund effects');
    const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    // Thrown so the job retries with backoff; the effects that finished are not called again.
    if (failure) throw failure.reason;
    return summary.join(' ');
  }

  private async email({ refund, order }: Refunded): Promise<RefundEffectStatus> {
    // A lost dispute: the bank, not us, gave the money back and told the buyer.
    if (refund.reason === 'dispute') return 'skipped: dispute';
    if (!this.mailer.configured) return 'skipped: not configured';
    const mail = buildRefundEmail({
      orderId: order.id,
      planId: order.plan_id,
      amountCents: refund.amount_cents,
      currency: refund.currency.toUpperCase(),
      refundedAt: refund.updated_at,
      customerName: order.name,
      endsAccess: refund.ends_access,
      accountUrl: new URL('/account', this.config.PUBLIC_URL).toString(),
    });
    return this.run(SIDE_EFFECTS.refundEmail, refund.id, (key) => this.mailer.send({ to: order.email, ...mail, messageId: key }));
  }

  /** The reversal of the sale's commission: only where a sale was tracked (a live order with a referral). */
  private async affiliateRefund({ refund, order, payment }: Refunded): Promise<RefundEffectStatus> {
    if (!order.livemode) return 'skipped: test order';
    if (!order.attribution?.tid && !order.referral) return 'skipped: no referral';
    if (!this.affiliate.configured) return 'skipped: not configured';
    return this.run(SIDE_EFFECTS.affiliateRefund, refund.id, (key) =>
      this.affiliate.trackRefund(
        {
          email: order.email,
          uid: order.lead_id ?? undefined,
          amountCents: refund.amount_cents,
          eventId: refund.provider_refund_id ?? refund.id,
          saleEventId: payment.provider_payment_id,
        },
        key,
      ),
    );
  }

  private async ga4Refund({ refund, order, payment }: Refunded): Promise<RefundEffectStatus> {
    if (!this.ga4.configured) return 'skipped: not configured';
    if (!order.livemode) return 'skipped: test order';
    const a = order.attribution ?? {};
    return this.run(SIDE_EFFECTS.ga4Refund, refund.id, () =>
      this.ga4.sendRefund({
        // The purchase's transaction_id (see OrderPaidHandler): GA4 takes the refund off that purchase.
        transactionId: payment.provider_payment_id,
        clientId: a.ga_client_id,
        sessionId: a.ga_session_id,
        amountCents: refund.amount_cents,
        currency: refund.currency.toUpperCase(),
        // Fixed for the refund's life: GA4 adds up refunds and has no idempotency key, so a resend
        // (a worker killed before it recorded the answer) must repeat the first one exactly. The
        // row's updated_at moves whenever the provider's word on it is applied again.
        eventTime: refund.created_at,
      }),
    );
  }

  private async cancelSubscription({ refund, order }: Refunded): Promise<RefundEffectStatus> {
    if (!refund.ends_access) return 'skipped: access kept';
    if (order.instalments) return this.instalments.stop(order);
    if (order.kind !== 'subscription' || !order.subscription_id) return 'skipped: not a subscription';
    const subscriptionId = order.subscription_id;
    const effect = await this.ledger.run(SIDE_EFFECTS.cancelSubscription, refund.id, async (key) => {
      const state = await this.gateway.cancelSubscriptionNow(subscriptionId, key);
      return { outcome: 'done', detail: { state } };
    });
    return effect.status === 'done' ? 'done' : `failed: ${String(effect.detail.reason ?? 'rejected')}`;
  }

  private async run(kind: SideEffectKind, subjectId: string, call: (key: string) => Promise<ProviderAnswer>): Promise<RefundEffectStatus> {
    const effect = await this.ledger.run(kind, subjectId, call);
    return effect.status === 'done' ? 'sent' : `failed: ${String(effect.detail.reason ?? 'rejected')}`;
  }
}
