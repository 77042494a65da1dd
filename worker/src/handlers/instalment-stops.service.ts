import { Inject, Injectable } from '@nestjs/common';
import { SIDE_EFFECTS } from '@contracts/jobs';
import type { OrderRow } from '@core/database/repositories/order.repository';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';

export type InstalmentStopStatus = 'done' | 'skipped: nothing scheduled' | `failed: ${string}`;

/**
 * Stops an instalment plan's later charges at the provider, whoever asks (a refund or lost
 * dispute that ended access, an erasure, the admin), through the ledger under
 * `stop-instalments:<schedule id>`: each schedule is canceled once. A plan with nothing scheduled
 * yet has nothing to stop; `schedule-instalments` reads the stop after it stores its schedule's
 * id and stops what it made then.
 */
@Injectable()
export class InstalmentStops {
  constructor(
    private readonly ledger: ProviderCallLedger,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  async stop(order: Pick<OrderRow, 'id' | 'instalment_schedule_id' | 'subscription_id'>): Promise<InstalmentStopStatus> {
    const plan = { orderId: order.id, scheduleId: order.instalment_schedule_id, subscriptionId: order.subscription_id };
    const subject = plan.scheduleId ?? plan.subscriptionId;
    if (!subject) return 'skipped: nothing scheduled';
    const effect = await this.ledger.run(SIDE_EFFECTS.stopInstalments, subject, async (key) => ({
      outcome: 'done',
      detail: { stopped: await this.gateway.stopInstalments(plan, key) },
    }));
    return effect.status === 'done' ? 'done' : `failed: ${String(effect.detail.reason ?? 'rejected')}`;
  }
}
