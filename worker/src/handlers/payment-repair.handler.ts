import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JOBS } from '@contracts/jobs';
import { PaymentRepository } from '@core/database/repositories/payment.repository';
import { PaymentMetrics } from '@core/metrics/payment-metrics';
import { OrderLifecycle } from '@core/orders/order-lifecycle';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { owe } from '@core/queue/owe';
import { OnJob } from '../jobs/on-job.decorator';

/** Payments read per page of the pass. */
const PAGE = 100;

export type PaymentRepairOutcome = `repaired ${number}, left ${number}`;

/**
 * First payments recorded under their order's own id, before payment 1 took the provider's id,
 * which no refund or dispute can find. Migration 1766966400000 repaired those whose order held
 * the id; the rest are repaired here by asking the provider for the object made for the order
 * (found by the order id its metadata carries), owed once by each worker that boots while any are
 * left. A payment the provider has nothing paid for (or of another provider than this worker's)
 * is logged by id and counted (`funnel_payments_without_provider_id`) for an operator, and left.
 */
@Injectable()
export class PaymentRepairHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger(PaymentRepairHandler.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly payments: PaymentRepository,
    private readonly lifecycle: OrderLifecycle,
    private readonly metrics: PaymentMetrics,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  /** Not awaited: a worker starts consuming while the check runs; a check that fails is retried at the next boot. */
  onApplicationBootstrap(): void {
    void this.oweIfNeeded().catch((err: unknown) =>
      this.logger.warn(`Could not check for payments recorded under their order's id: ${(err as Error).message}`),
    );
  }

  /** Owes the repair pass when any payment needs it; resolves with whether it did. */
  async oweIfNeeded(): Promise<boolean> {
    const count = await this.payments.countUnderOrderIds();
    this.metrics.paymentsLeftWithoutProviderId(count);
    if (count === 0) return false;
    await owe(this.dataSource, [{ name: JOBS.repairPaymentIds, data: {} }]);
    return true;
  }

  @OnJob(JOBS.repairPaymentIds)
  async repair(): Promise<PaymentRepairOutcome> {
    let repaired = 0;
    let left = 0;
    let after: string | null = null;
    for (;;) {
      const page = await this.payments.underOrderIds(after, PAGE);
      for (const payment of page) {
        const found =
          payment.provider === this.gateway.provider
            ? await this.gateway.firstPaymentOf({ orderId: payment.order_id, kind: payment.kind })
            : null;
        if (found && (await this.lifecycle.firstPaymentFound(payment.id, payment.order_id, found))) {
          repaired += 1;
          continue;
        }
        left += 1;
        this.logger.warn(
          { paymentId: payment.id, orderId: payment.order_id, provider: payment.provider },
          "A first payment stays recorded under its order's id: the provider has no paid charge or subscription for the order",
        );
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1].id;
    }
    this.metrics.paymentsLeftWithoutProviderId(left);
    const outcome: PaymentRepairOutcome = `repaired ${repaired}, left ${left}`;
    this.logger.log({ repaired, left }, 'Payments recorded under their order id repaired from the provider');
    return outcome;
  }
}
