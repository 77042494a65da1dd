import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { JOBS, ScheduleInstalmentsPayload, SIDE_EFFECTS, StopInstalmentsPayload } from '@contracts/jobs';
import { isPlanId, planOf } from '@contracts/plans';
import { OrderRepository } from '@core/database/repositories/order.repository';
import { OrderLifecycle } from '@core/orders/order-lifecycle';
import { gatewayOrderOf } from '@core/payments/order-reads';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { OnJob } from '../jobs/on-job.decorator';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';
import { InstalmentStops, InstalmentStopStatus } from './instalment-stops.service';

export type ScheduleInstalmentsOutcome =
  | 'scheduled'
  | 'already scheduled'
  | `scheduled, then stopped: ${InstalmentStopStatus}`
  | 'skipped: order not found'
  | 'skipped: not an instalment plan'
  | 'skipped: not paid'
  | 'skipped: access revoked'
  | 'skipped: stopped';

export type StopInstalmentsOutcome = InstalmentStopStatus | 'skipped: order not found' | 'skipped: not an instalment plan';

/**
 * An instalment plan's later charges, scheduled at the provider once the first is paid (owed in
 * the transaction that recorded that payment). The schedule is claimed in the side-effect ledger
 * under `instalment-schedule:<order id>` before the provider is called, and the provider call
 * carries the same idempotency key, so a retried job never schedules the charges twice. A plan
 * whose access was revoked (full refund, lost dispute) or that was stopped (admin, erasure) is
 * never scheduled; one stopped while its schedule was being made is stopped once it is kept.
 */
@Injectable()
export class InstalmentsHandler {
  private readonly logger = new Logger(InstalmentsHandler.name);

  constructor(
    private readonly orders: OrderRepository,
    private readonly ledger: ProviderCallLedger,
    private readonly stops: InstalmentStops,
    private readonly lifecycle: OrderLifecycle,
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
    const stopped = order.access_revoked_at ? 'access revoked' : order.instalments_stopped_at ? 'stopped' : null;
    // Refused inside the ledger's claim: a schedule made on an earlier run (and recorded) is still
    // kept and stopped below, and one never made is refused for good.
    const effect = await this.ledger.run(SIDE_EFFECTS.instalmentSchedule, orderId, async () => {
      if (stopped) return { outcome: 'rejected', reason: stopped };
      const scheduled = await this.gateway.scheduleInstalments({
        order: gatewayOrderOf(order, planOf(order.plan_id)),
        chargeId,
        count: instalments - 1,
        firstPaidAt,
      });
      return { outcome: 'done', detail: { scheduleId: scheduled.scheduleId, subscriptionId: scheduled.subscriptionId } };
    });
    if (effect.status !== 'done')
      return this.done(orderId, effect.detail.reason === 'stopped' ? 'skipped: stopped' : 'skipped: access revoked');
    const { scheduleId, subscriptionId } = effect.detail;
    if (typeof scheduleId !== 'string') throw new Error(`The instalment schedule of order ${orderId} was recorded without its id`);
    // Stripe creates the schedule's subscription when the second charge falls due; its events
    // carry our order id, and the payment-event handler stores its id then.
    const kept = await this.orders.keepInstalmentSchedule(orderId, scheduleId, typeof subscriptionId === 'string' ? subscriptionId : null);
    if (kept.access_revoked_at || kept.instalments_stopped_at) {
      return this.done(orderId, `scheduled, then stopped: ${await this.stops.stop(kept)}`, scheduleId);
    }
    return this.done(orderId, effect.replayed ? 'already scheduled' : 'scheduled', scheduleId);
  }

  /**
   * A plan the admin or an erasure stopped (`orders.instalments_stopped_at`): its schedule is
   * canceled. Once nothing more can be charged, a plan whose schedule never started its
   * subscription (or was never made) ends as a canceled subscription would (the lifecycle decides).
   */
  @OnJob(JOBS.stopInstalments)
  async stop({ orderId }: StopInstalmentsPayload): Promise<StopInstalmentsOutcome> {
    const order = await this.orders.findById(orderId);
    if (!order) return 'skipped: order not found';
    if (!order.instalments) return 'skipped: not an instalment plan';
    const outcome = await this.stops.stop(order);
    const ended = !outcome.startsWith('failed') && (await this.lifecycle.unstartedInstalmentsStopped(orderId));
    this.logger.log({ orderId, scheduleId: order.instalment_schedule_id, outcome, ended }, 'Instalments stopped');
    return outcome;
  }

  private done<T extends ScheduleInstalmentsOutcome>(orderId: string, outcome: T, scheduleId?: string): T {
    this.logger.log({ orderId, scheduleId, outcome }, 'Instalments scheduled');
    return outcome;
  }
}
