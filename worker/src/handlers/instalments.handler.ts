import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { DataSource } from 'typeorm';
import { JOBS, ScheduleInstalmentsPayload, SIDE_EFFECTS } from '@contracts/jobs';
import { isPlanId, PLANS } from '@contracts/plans';
import { OrderRepository } from '@core/database/repositories/order.repository';
import { gatewayOrderOf } from '@core/payments/order-reads';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { OnJob } from '../jobs/on-job.decorator';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';

export type ScheduleInstalmentsOutcome =
  'scheduled' | 'already scheduled' | 'skipped: order not found' | 'skipped: not an instalment plan' | 'skipped: not paid';

/**
 * An instalment plan's later charges, scheduled at the provider once the first is paid (owed in
 * the transaction that recorded that payment). The schedule is claimed in the side-effect ledger
 * under `instalment-schedule:<order id>` before the provider is called, and the provider call
 * carries the same idempotency key, so a retried job never schedules the charges twice.
 */
@Injectable()
export class InstalmentsHandler {
  private readonly logger = new Logger(InstalmentsHandler.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrderRepository,
    private readonly ledger: ProviderCallLedger,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  @OnJob(JOBS.scheduleInstalments)
  async schedule({ orderId }: ScheduleInstalmentsPayload): Promise<ScheduleInstalmentsOutcome> {
    const order = await this.orders.findById(orderId);
    if (!order) return 'skipped: order not found';
    if (!order.instalments || !isPlanId(order.plan_id)) return 'skipped: not an instalment plan';
    if (!order.paid_at || !order.payment_intent_id) return 'skipped: not paid';
    if (order.provider !== this.gateway.provider) {
      throw new UnrecoverableError(
        `The order was paid at ${order.provider}, but this worker's payment provider is ${this.gateway.provider}`,
      );
    }
    const { payment_intent_id: chargeId, paid_at: firstPaidAt, instalments } = order;
    const effect = await this.ledger.run(SIDE_EFFECTS.instalmentSchedule, orderId, async () => {
      const scheduled = await this.gateway.scheduleInstalments({
        order: gatewayOrderOf(order, PLANS[order.plan_id]),
        chargeId,
        count: instalments - 1,
        firstPaidAt,
      });
      return { outcome: 'done', detail: { scheduleId: scheduled.scheduleId, subscriptionId: scheduled.subscriptionId } };
    });
    const subscriptionId = effect.detail.subscriptionId;
    // Stripe creates the schedule's subscription when the second charge falls due; its events
    // carry our order id, and the payment-event handler stores its id then.
    if (typeof subscriptionId === 'string') await this.orders.setIdIfMissing(this.dataSource, orderId, 'subscription_id', subscriptionId);
    const outcome = effect.replayed ? 'already scheduled' : 'scheduled';
    this.logger.log({ orderId, scheduleId: effect.detail.scheduleId, count: instalments - 1, outcome }, 'Instalments scheduled');
    return outcome;
  }
}
