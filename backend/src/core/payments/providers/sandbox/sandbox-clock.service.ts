import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SandboxClockResponse } from '@contracts/payments';
import { CURRENCY } from '@contracts/plans';
import { PaymentsConfig } from '../../../config/config-sections';
import type { SandboxObjectRow } from '../../../database/repositories/sandbox-object.repository';
import { addDays } from '../../billing-calendar';
import { failsOffSession } from './sandbox-cards';
import { renewalInvoiceObject, stripeEvent, subscriptionObject } from './sandbox-events';
import { sandboxId } from './sandbox-ids';
import { currentPeriodEnd } from './sandbox-periods';
import { SandboxStore } from './sandbox-store';

/**
 * The sandbox's clock, like a Stripe test clock: moving it forward performs, in the order they
 * fall due, what happens in the time skipped, with the events Stripe sends for each:
 * - a period ends (a month, or a year for a yearly plan): the subscription is billed (`invoice.paid`), or, on a card that fails
 *   off-session (9995, 0341, 3184), the invoice stays open (`invoice.payment_failed`) and the
 *   subscription is past due (`customer.subscription.updated`);
 * - an open invoice is retried PAYMENT_RETRY_DAYS after its first failure, on the subscription's
 *   card of that moment (so 'Update card' before a retry pays it); after the last failed retry
 *   SANDBOX_AFTER_LAST_RETRY decides, as Stripe's setting does: the subscription is canceled
 *   (`customer.subscription.deleted`, the invoice uncollectible), marked unpaid, or left past due
 *   (`customer.subscription.updated`; the invoice stays open, retried no more, and no later period
 *   is billed while it is);
 * - a subscription set to cancel at its period's end, or an instalment schedule whose charges
 *   are all made, ends when its period does (`customer.subscription.deleted`).
 * Every invoice is stored under the idempotency key of its period, so a period is never billed
 * twice, and its events are stored (with the `payment-event` job that applies each) in the
 * clock's transaction.
 */
@Injectable()
export class SandboxClockService {
  constructor(
    private readonly store: SandboxStore,
    private readonly config: PaymentsConfig,
  ) {}

  async advance(days: number): Promise<SandboxClockResponse> {
    const now = await this.store.transaction(async (manager) => {
      // The clock's row is locked until commit: two moves take turns and bill each period once.
      const sandboxNow = await this.store.advanceClock(manager, days * 86_400);
      for (const subscription of await this.store.billingSubscriptions(manager)) await this.bill(manager, subscription, sandboxNow);
      return sandboxNow;
    });
    return { now: now.toISOString() };
  }

  /** Performs one subscription's due billing steps up to `now`, earliest first. */
  private async bill(manager: EntityManager, start: SandboxObjectRow, now: Date): Promise<void> {
    let subscription = start;
    while (subscription.status !== 'canceled') {
      const open = await this.store.openInvoice(manager, subscription.order_id);
      if (open) {
        if (!open.next_attempt_at || open.next_attempt_at > now) return;
        subscription = await this.retry(manager, subscription, open, open.next_attempt_at);
        continue;
      }
      const billed = await this.store.countForOrder(manager, 'invoice', subscription.order_id);
      const periodEnd = currentPeriodEnd(subscription, billed);
      if (periodEnd > now) return;
      const finished = subscription.iterations !== null && billed >= subscription.iterations;
      const paused = subscription.pause_resumes_at && periodEnd < subscription.pause_resumes_at;
      subscription =
        finished || subscription.cancel_at_period_end
          ? await this.setStatus(manager, subscription, 'canceled', periodEnd)
          : paused
            ? await this.voidPeriod(manager, subscription, billed + 1, periodEnd)
            : await this.charge(manager, subscription, billed + 1, periodEnd);
    }
  }

  /**
   * A period that ends while the subscription is paused: its invoice is void, as with Stripe's
   * pause_collection behavior void (nothing is charged, nothing is owed, no event an order acts
   * on), and the period counts as billed.
   */
  private async voidPeriod(manager: EntityManager, subscription: SandboxObjectRow, period: number, at: Date): Promise<SandboxObjectRow> {
    await this.store.insertOnce(manager, { ...renewalInvoice(subscription, period, at), status: 'void', amountCents: 0 }, () => []);
    return subscription;
  }

  /**
   * Bills period `period` on the subscription's card: paid, or open and past due when the card
   * fails. A one-off discount (the save offer) comes off this charge and is then used up.
   */
  private async charge(manager: EntityManager, subscription: SandboxObjectRow, period: number, at: Date): Promise<SandboxObjectRow> {
    const fails = failsOffSession(subscription.card?.outcome);
    const off = subscription.next_renewal_off_cents ?? 0;
    await this.store.insertOnce(
      manager,
      {
        ...renewalInvoice(subscription, period, at),
        status: fails ? 'open' : 'paid',
        amountCents: Math.max(0, renewalAmountCents(subscription, period) - off),
        attemptCount: fails ? 1 : 0,
        firstFailedAt: fails ? at : null,
        nextAttemptAt: fails ? addDays(at, this.config.paymentRetryDays[0]) : null,
      },
      (invoice) => [stripeEvent(fails ? 'invoice.payment_failed' : 'invoice.paid', renewalInvoiceObject(subscription, invoice), at)],
    );
    const charged = off > 0 ? await this.store.setRetention(manager, subscription, { pause_resumes_at: subscription.pause_resumes_at ?? null, next_renewal_off_cents: null }, () => []) : subscription;
    return fails ? this.setStatus(manager, charged, 'past_due', at) : charged;
  }

  /** Charges an open invoice again: paid (the subscription is active again), or failed once more, or given up. */
  private async retry(
    manager: EntityManager,
    subscription: SandboxObjectRow,
    invoice: SandboxObjectRow,
    at: Date,
  ): Promise<SandboxObjectRow> {
    const attempts = invoice.attempt_count + 1;
    if (!failsOffSession(subscription.card?.outcome)) {
      await this.store.updateBilling(manager, invoice, { status: 'paid', attempt_count: attempts, next_attempt_at: null }, (paid) => [
        stripeEvent('invoice.paid', renewalInvoiceObject(subscription, paid), at),
      ]);
      return this.setStatus(manager, subscription, 'active', at);
    }
    const retries = this.config.paymentRetryDays;
    const givenUp = attempts > retries.length;
    const firstFailed = invoice.first_failed_at ?? invoice.created_at;
    const afterLast = this.config.SANDBOX_AFTER_LAST_RETRY;
    await this.store.updateBilling(
      manager,
      invoice,
      {
        status: givenUp && afterLast === 'cancel' ? 'uncollectible' : 'open',
        attempt_count: attempts,
        next_attempt_at: givenUp ? null : addDays(firstFailed, retries[attempts - 1]),
      },
      (failed) => [stripeEvent('invoice.payment_failed', renewalInvoiceObject(subscription, failed), at)],
    );
    if (!givenUp || afterLast === 'past_due') return subscription;
    return this.setStatus(manager, subscription, afterLast === 'cancel' ? 'canceled' : 'unpaid', at);
  }

  private setStatus(
    manager: EntityManager,
    subscription: SandboxObjectRow,
    status: 'active' | 'past_due' | 'unpaid' | 'canceled',
    at: Date,
  ): Promise<SandboxObjectRow> {
    const type = status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated';
    return this.store.updateBilling(
      manager,
      subscription,
      { status, attempt_count: subscription.attempt_count, next_attempt_at: null },
      (updated) => [stripeEvent(type, subscriptionObject(updated, null), at)],
    );
  }
}

/** The invoice of renewal `period`, stored under its period's idempotency key so a period is billed once. */
function renewalInvoice(subscription: SandboxObjectRow, period: number, at: Date) {
  return {
    id: sandboxId('in'),
    object: 'invoice' as const,
    orderId: subscription.order_id,
    idempotencyKey: `sandbox-renewal:${subscription.id}:${period}`,
    clientSecret: null,
    currency: subscription.currency ?? CURRENCY.toLowerCase(),
    customerId: subscription.customer_id,
    paymentMethodId: subscription.payment_method_id,
    createdAt: at,
  };
}

/**
 * What renewal `period` (1: the second month) charges: the discounted amount while a coupon's
 * months last (the first is period 0), then the subscription's full price.
 */
export function renewalAmountCents(
  subscription: Pick<SandboxObjectRow, 'amount_cents' | 'full_amount_cents' | 'discounted_periods'>,
  period: number,
): number {
  const full = subscription.full_amount_cents;
  const months = subscription.discounted_periods;
  if (full !== null && full !== undefined && months !== null && months !== undefined && period >= months) return full;
  return subscription.amount_cents ?? 0;
}
