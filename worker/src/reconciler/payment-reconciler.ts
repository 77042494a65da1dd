import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { JOBS, ORDER_PAID_EFFECTS } from '@contracts/jobs';
import { PaymentsConfig, QueueConfig } from '@core/config/config-sections';
import { OrderReconcileRepository } from '@core/database/repositories/order-reconcile.repository';
import { PaymentEventRepository } from '@core/database/repositories/payment-event.repository';
import { OrderLifecycle } from '@core/orders/order-lifecycle';
import { SETTLED_STATUSES } from '@core/orders/order-state';
import { objectOf, readOrderStatus } from '@core/payments/order-reads';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { owe } from '@core/queue/owe';
import { PaymentEventHandler } from '../handlers/payment-event.handler';
import { redact } from '../jobs/redact';
import { PeriodicPass } from './periodic-pass';

/** Most events, orders and paid orders one pass takes up each; the rest wait for the next pass. */
const BATCH = 100;

export interface ReconcileSummary {
  /** Unapplied webhook events applied now (each after a fresh provider read). */
  eventsApplied: number;
  /** Unsettled orders re-read from the provider and applied. */
  ordersRead: number;
  /** Paid orders whose missing paid effects were owed again. */
  paidEffectsOwed: number;
  /** Past-due orders whose grace ran out: their access ended now. */
  graceEnded: number;
  /** Provider reads or applications that failed; the next pass tries again. */
  failures: number;
}

/**
 * Repairs what webhooks and jobs left behind, every RECONCILE_INTERVAL_S in each worker, looking
 * back JOB_RETRY_HORIZON_S (as long as providers redeliver):
 *
 * 1. webhook events still unapplied RECONCILE_SETTLE_AFTER_S after they arrived are applied as
 *    their job would apply them (a fresh provider read under the order's row lock);
 * 2. orders still unsettled that long after they were created are re-read from the provider and
 *    applied through the same lock-read-apply path the webhook uses, so an order found paid owes
 *    its paid effects in that same transaction, exactly once;
 * 3. paid orders with a paid effect missing from the side_effects ledger, and no `order-paid` job
 *    open or waiting for an admin's retry, owe `order-paid` again: it calls only what is missing
 *    (finished keys replay from the ledger, never a second call);
 * 4. orders past due PAST_DUE_GRACE_DAYS after their first failed charge (in the provider's time,
 *    so the sandbox clock moves it too), whatever their age, have their access ended, with the
 *    membership-ended e-mail and webhook: no provider event comes to end it.
 *
 * Safe with any number of workers: an order is claimed (its read stamp, SKIP LOCKED) before it is
 * read, so it is read at most once per interval whoever runs the pass, and paid effects are
 * re-owed under the order's row lock. A pass that fails part-way is simply repeated by the next.
 */
@Injectable()
export class PaymentReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PaymentReconciler.name);
  private readonly passes: PeriodicPass;

  constructor(
    private readonly config: PaymentsConfig,
    private readonly queue: QueueConfig,
    private readonly reconcileRows: OrderReconcileRepository,
    private readonly lifecycle: OrderLifecycle,
    private readonly events: PaymentEventRepository,
    private readonly paymentEvents: PaymentEventHandler,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {
    this.passes = new PeriodicPass(this.config.RECONCILE_INTERVAL_S * 1000, () => this.reconcile(), (err: Error) =>
      this.logger.warn({ err: redact(err.message) }, 'Payment reconciliation pass failed; the next one tries again'),
    );
  }

  onApplicationBootstrap(): void {
    this.passes.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.passes.stop();
  }

  /** One pass; the timer runs one per interval, and tests run their own. */
  async reconcile(): Promise<ReconcileSummary> {
    const settleMs = this.config.RECONCILE_SETTLE_AFTER_S * 1000;
    const lookbackMs = this.queue.JOB_RETRY_HORIZON_S * 1000;
    const claimMs = this.config.RECONCILE_INTERVAL_S * 1000;
    const summary: ReconcileSummary = { eventsApplied: 0, ordersRead: 0, paidEffectsOwed: 0, graceEnded: 0, failures: 0 };
    await this.applyStaleEvents(settleMs, lookbackMs, claimMs, summary);
    await this.readUnsettledOrders(settleMs, lookbackMs, claimMs, summary);
    if (!this.passes.stopped) summary.paidEffectsOwed = await this.reowePaidEffects(settleMs, lookbackMs);
    if (!this.passes.stopped) summary.graceEnded = await this.endLapsedGrace();
    if (summary.eventsApplied + summary.ordersRead + summary.paidEffectsOwed + summary.graceEnded + summary.failures > 0) {
      this.logger.log({ ...summary }, 'Payment reconciliation pass');
    }
    return summary;
  }

  /** Owes `order-paid` again for paid orders missing one of their paid effects; resolves with how many. */
  private async reowePaidEffects(settleMs: number, lookbackMs: number): Promise<number> {
    const owed = await this.reconcileRows.reowePaidEffects(ORDER_PAID_EFFECTS, settleMs, lookbackMs, BATCH, (manager, orderId) =>
      owe(manager, [{ name: JOBS.orderPaid, data: { orderId } }]),
    );
    return owed.length;
  }

  /** Ends the access of past-due orders whose first failed charge is PAST_DUE_GRACE_DAYS old by the provider's clock. */
  private async endLapsedGrace(): Promise<number> {
    const graceStartedBefore = new Date((await this.gateway.now()).getTime() - this.config.PAST_DUE_GRACE_DAYS * 86_400_000);
    return (await this.lifecycle.graceLapsed(graceStartedBefore, BATCH)).length;
  }

  /** Events grouped by their order, so one claim (and one provider read per event) covers the order. */
  private async applyStaleEvents(settleMs: number, lookbackMs: number, claimMs: number, summary: ReconcileSummary): Promise<void> {
    const byOrder = new Map<string | null, string[]>();
    for (const event of await this.events.findStaleUnapplied(settleMs, lookbackMs, BATCH)) {
      const orderId = await this.paymentEvents.orderOf(event);
      byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), event.id]);
    }
    for (const [orderId, eventIds] of byOrder) {
      if (this.passes.stopped) return;
      // An event about no order is marked applied without a provider read: nothing to claim.
      if (orderId && !(await this.reconcileRows.claimRefresh(orderId, claimMs))) continue;
      for (const eventId of eventIds) {
        try {
          await this.paymentEvents.apply({ eventId });
          summary.eventsApplied += 1;
        } catch (err) {
          summary.failures += 1;
          this.logger.warn({ eventId, orderId, err: redact((err as Error).message) }, 'Reconciler could not apply a payment event');
        }
      }
    }
  }

  private async readUnsettledOrders(settleMs: number, lookbackMs: number, claimMs: number, summary: ReconcileSummary): Promise<void> {
    for (const order of await this.reconcileRows.claimUnsettled(settleMs, lookbackMs, claimMs, BATCH, SETTLED_STATUSES)) {
      if (this.passes.stopped) return;
      const object = objectOf(order);
      if (!object) continue;
      try {
        await this.lifecycle.providerRead(order.id, () => readOrderStatus(this.gateway, object));
        summary.ordersRead += 1;
      } catch (err) {
        summary.failures += 1;
        this.logger.warn(
          { orderId: order.id, err: redact((err as Error).message) },
          'Reconciler could not read an order from the provider',
        );
      }
    }
  }
}
