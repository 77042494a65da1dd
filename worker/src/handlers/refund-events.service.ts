import { Inject, Injectable, Logger } from '@nestjs/common';
import { PaymentEventRepository } from '@core/database/repositories/payment-event.repository';
import { RefundRepository } from '@core/database/repositories/refund.repository';
import { OrderLifecycle } from '@core/orders/order-lifecycle';
import { AfterPaymentSubject, PAYMENT_GATEWAY, PaymentGateway, type Refund } from '@core/payments/payment-gateway';

export type RefundEventOutcome =
  | `recorded: ${number} refund(s)`
  | `recorded: dispute ${'disputed' | 'won' | 'lost'}`
  | 'skipped: not found at the provider'
  | 'skipped: no payment';

/**
 * Applies a stored refund or dispute event (charge.refunded, refund.*, charge.dispute.*: see
 * PaymentEvent.after). The event only names the object: the refund, the refunded charge's refunds
 * or the dispute is re-read from the provider, so a duplicate, a replay or an event out of order
 * records today's state. Each refund is recorded once by its provider id, owing its effects once,
 * and each dispute status once (OrderLifecycle.refundRecorded, disputeChanged), in the
 * transaction that marks the event applied.
 */
@Injectable()
export class RefundEventsService {
  private readonly logger = new Logger(RefundEventsService.name);

  constructor(
    private readonly lifecycle: OrderLifecycle,
    private readonly refunds: RefundRepository,
    private readonly events: PaymentEventRepository,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  async apply(eventId: string, subject: AfterPaymentSubject): Promise<RefundEventOutcome> {
    const outcome = subject.object === 'dispute' ? await this.applyDispute(eventId, subject.id) : await this.applyRefunds(eventId, subject);
    this.logger.log({ eventId, object: subject.object, outcome }, 'Refund or dispute event applied');
    return outcome;
  }

  private async applyRefunds(eventId: string, subject: AfterPaymentSubject): Promise<RefundEventOutcome> {
    const read: Array<Refund | null> =
      subject.object === 'refund' ? [await this.gateway.readRefund(subject.id)] : await this.gateway.refundsOfPayment(subject.id);
    const refunds = read.filter((refund): refund is Refund => refund !== null);
    if (refunds.length === 0) return this.skip(eventId, 'skipped: not found at the provider');
    const found = await Promise.all(
      refunds.map(async (refund) => ({ refund, payment: await this.refunds.paymentByProviderIds(refund.paymentIds) })),
    );
    const ours = found.filter((f) => f.payment !== null);
    if (ours.length === 0) return this.skip(eventId, 'skipped: no payment');
    await this.lifecycle.refundRecorded(
      ours.map(({ refund, payment }) => ({
        paymentId: payment!.id,
        requestKey: refund.requestKey,
        providerRefundId: refund.refundId,
        amountCents: refund.amountCents,
        currency: refund.currency,
        state: refund.state,
        reason: 'refund' as const,
      })),
      [eventId],
    );
    return `recorded: ${ours.length} refund(s)`;
  }

  private async applyDispute(eventId: string, disputeId: string): Promise<RefundEventOutcome> {
    const dispute = await this.gateway.readDispute(disputeId);
    if (!dispute) return this.skip(eventId, 'skipped: not found at the provider');
    const payment = await this.refunds.paymentByProviderIds(dispute.paymentIds);
    if (!payment) return this.skip(eventId, 'skipped: no payment');
    await this.lifecycle.disputeChanged(
      {
        paymentId: payment.id,
        providerDisputeId: dispute.disputeId,
        outcome: dispute.outcome,
        amountCents: dispute.amountCents,
        currency: dispute.currency,
      },
      [eventId],
    );
    return `recorded: dispute ${dispute.outcome}`;
  }

  private async skip<T extends RefundEventOutcome>(eventId: string, outcome: T): Promise<T> {
    await this.events.markApplied([eventId]);
    return outcome;
  }
}
