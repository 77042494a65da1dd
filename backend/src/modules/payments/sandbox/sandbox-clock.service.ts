import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SandboxClockResponse } from '@contracts/payments';
import { renewalInvoiceObject, SandboxObjectRow, stripeEvent } from '@core/payments/providers/sandbox/sandbox-events';
import { sandboxId } from '@core/payments/providers/sandbox/sandbox-ids';
import { SandboxStore } from '@core/payments/providers/sandbox/sandbox-store';

/** The date `months` calendar months after `from` (a 31st falls back to the month's last day, as Stripe bills). */
export function addMonths(from: Date, months: number): Date {
  const target = new Date(from);
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return target;
}

/**
 * The sandbox's clock, like a Stripe test clock: moving it forward performs what falls due in the
 * time skipped. Each active subscription is renewed once per monthly period that ended: a paid
 * invoice (an `invoice` sandbox object under the idempotency key of its period, so a period is
 * never billed twice) and its `invoice.paid` event, owed as a signed `sandbox-webhook` delivery in
 * the same transaction as the clock's move.
 */
@Injectable()
export class SandboxClockService {
  constructor(private readonly store: SandboxStore) {}

  async advance(days: number): Promise<SandboxClockResponse> {
    const now = await this.store.transaction(async (manager) => {
      // The clock's row is locked until commit: two moves take turns and bill each period once.
      const sandboxNow = await this.store.advanceClock(manager, days * 86_400);
      for (const subscription of await this.store.activeSubscriptions(manager)) await this.renew(manager, subscription, sandboxNow);
      return sandboxNow;
    });
    return { now: now.toISOString() };
  }

  private async renew(manager: EntityManager, subscription: SandboxObjectRow, now: Date): Promise<void> {
    const renewed = await this.store.countForOrder(manager, 'invoice', subscription.order_id);
    for (let period = renewed + 1; addMonths(subscription.created_at, period) <= now; period++) {
      const paidAt = addMonths(subscription.created_at, period);
      await this.store.insertOnce(
        manager,
        {
          id: sandboxId('in'),
          object: 'invoice',
          orderId: subscription.order_id,
          idempotencyKey: `sandbox-renewal:${subscription.id}:${period}`,
          clientSecret: null,
          status: 'paid',
          amountCents: subscription.amount_cents ?? 0,
          currency: subscription.currency ?? 'usd',
          customerId: subscription.customer_id,
          paymentMethodId: subscription.payment_method_id,
          createdAt: paidAt,
        },
        (invoice) => [stripeEvent('invoice.paid', renewalInvoiceObject(subscription, invoice), paidAt)],
      );
    }
  }
}
