import { CURRENCY } from '@contracts/plans';
import { firstChargeCents, idempotencyKey, PaymentRefusedError, PaymentUnsupportedError, refundIdempotencyKey } from '../../payment-gateway';
import type {
  BillingPortalSession,
  CreatedCardUpdate,
  CreatedIntent,
  CreatedSubscription,
  Dispute,
  FirstPaymentQuery,
  ForgottenCustomer,
  FoundFirstPayment,
  GatewayOrder,
  InstalmentPlanRef,
  InstalmentRequest,
  PaymentGateway,
  PaymentState,
  Refund,
  RefundRequest,
  RenewalDiscount,
  SavedCard,
  SavedCardCharge,
  SavedCardSource,
  ScheduledInstalments,
  StoppedInstalments,
  SubscriptionInvoice,
  SubscriptionState,
  SubscriptionTerms,
} from '../../payment-gateway';
import type { EntityManager } from 'typeorm';
import { intentState, refundState, subscriptionState } from '../stripe/stripe-states';
import { StripeWire } from '../stripe/stripe-wire';
import {
  chargedCents,
  intentEvent,
  invoiceObject,
  paymentIntentObject,
  refundedChargeObject,
  refundObject,
  setupIntentObject,
  stripeEvent,
  subscriptionObject,
} from './sandbox-events';
import { CARD_ERRORS } from './sandbox-card-errors';
import { disputeOf } from './sandbox-disputes';
import { clientSecretFor, firstInvoiceId, sandboxId } from './sandbox-ids';
import { currentPeriodEnd } from './sandbox-periods';
import type { SandboxStore } from './sandbox-store';
import type { SandboxObjectRow } from '../../../database/repositories/sandbox-object.repository';

/** A sandbox refund in neutral terms; its request key is the rest of its idempotency key. */
function refundOf(row: SandboxObjectRow): Refund {
  const prefix = refundIdempotencyKey('');
  const key = row.idempotency_key ?? '';
  return {
    refundId: row.id,
    state: refundState(row.status),
    amountCents: row.amount_cents ?? 0,
    currency: row.currency ?? CURRENCY.toLowerCase(),
    paymentIds: row.refunded_id ? [row.refunded_id] : [],
    requestKey: key.startsWith(prefix) ? key.slice(prefix.length) : null,
  };
}

/** Stripe's subscription statuses that nothing follows: a deleted customer's other subscriptions are canceled. */
const ENDED_SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set(['canceled', 'incomplete_expired']);

/**
 * The offline stand-in for Stripe (no keys configured): the same life cycle, held in Postgres,
 * with Stripe-like ids, idempotency keys and webhook events. Cards are confirmed by the sandbox's
 * 'Test mode' form (SandboxConfirmService), as Stripe.js confirms them in production. Because it
 * imitates Stripe's wire format on purpose, it reads its ids and status words with the Stripe
 * adapter's vocabulary.
 */
export class SandboxGateway extends StripeWire implements PaymentGateway {
  readonly provider = 'sandbox' as const;
  /** Test cards only: every sandbox order is a test order. */
  readonly livemode = false;
  readonly publishableKey = null;

  constructor(
    private readonly store: SandboxStore,
    /** The sandbox signs its own events (SANDBOX_WEBHOOK_SECRET), delivered to the same endpoint as Stripe's. */
    webhookSecret: string,
  ) {
    // Every type: the sandbox writes only the events it means.
    super(webhookSecret, () => true);
  }

  async createCardSetup(order: GatewayOrder): Promise<CreatedIntent> {
    const customerId = this.customerFor(order);
    const id = sandboxId('seti');
    const row = await this.store.transaction((manager) =>
      this.store.insertOnce(
        manager,
        {
          id,
          object: 'setup_intent',
          orderId: order.id,
          idempotencyKey: idempotencyKey(order.id, 'create-setup-intent'),
          clientSecret: clientSecretFor(id),
          status: 'requires_payment_method',
          amountCents: order.amountCents,
          currency: order.currency,
          customerId,
        },
        (stored) => [stripeEvent('setup_intent.created', setupIntentObject(stored))],
      ),
    );
    return { intentId: row.id, clientSecret: row.client_secret as string, customerId: row.customer_id };
  }

  async createCharge(order: GatewayOrder): Promise<CreatedIntent> {
    const customerId = this.customerFor(order);
    const id = sandboxId('pi');
    const row = await this.store.transaction((manager) =>
      this.store.insertOnce(
        manager,
        {
          id,
          object: 'payment_intent',
          orderId: order.id,
          idempotencyKey: idempotencyKey(order.id, 'create-payment-intent'),
          clientSecret: clientSecretFor(id),
          status: 'requires_payment_method',
          amountCents: firstChargeCents(order),
          currency: order.currency,
          customerId,
        },
        (stored) => [stripeEvent('payment_intent.created', paymentIntentObject(stored))],
      ),
    );
    return { intentId: row.id, clientSecret: row.client_secret as string, customerId: row.customer_id };
  }

  /**
   * Charges the saved card at once, as Stripe does for a subscription's first invoice once it is
   * confirmed: 4000 0000 0000 9995 saves fine but its charge fails (subscription incomplete); a
   * card authenticated at setup (3155) needs no second authentication; 4000 0027 6000 3184 asks
   * for authentication on every payment, so the first payment waits for the buyer (the browser
   * completes it through /api/sandbox/next-action, like Stripe.js's handleNextAction).
   */
  async createSubscription(order: GatewayOrder, setupId: string): Promise<CreatedSubscription> {
    return this.store.transaction(async (manager) => {
      const setup = await this.store.find(manager, 'setup_intent', setupId);
      if (!setup || setup.order_id !== order.id) throw new PaymentRefusedError('This card confirmation belongs to another checkout.');
      if (setup.status !== 'succeeded' || !setup.payment_method_id) {
        throw new PaymentRefusedError('Your card has not been confirmed yet. Please complete the card details and try again.');
      }
      const outcome = setup.card?.outcome;
      const needsAuthentication = outcome === 'always_authenticate';
      const paid = outcome !== 'insufficient_funds' && outcome !== 'attaches_then_fails' && !needsAuthentication;
      const subscription = await this.store.insertOnce(
        manager,
        {
          id: sandboxId('sub'),
          object: 'subscription',
          orderId: order.id,
          idempotencyKey: idempotencyKey(order.id, 'create-subscription'),
          clientSecret: null,
          status: paid ? 'active' : 'incomplete',
          amountCents: order.amountCents,
          currency: order.currency,
          customerId: setup.customer_id,
          paymentMethodId: setup.payment_method_id,
          card: setup.card,
          // As a Stripe coupon on the subscription: the first months at amountCents, then the price.
          fullAmountCents: order.discount?.fullAmountCents ?? null,
          discountedPeriods: order.discount?.durationMonths ?? null,
          invoiceItemCents: order.bump?.amountCents ?? null,
        },
        (stored) => [
          stripeEvent('customer.subscription.created', subscriptionObject(stored, firstInvoiceId(stored))),
          // Stripe sends nothing about the invoice while its payment waits for the buyer.
          ...(needsAuthentication
            ? []
            : [stripeEvent(paid ? 'invoice.paid' : 'invoice.payment_failed', invoiceObject(stored, firstInvoiceId(stored), paid))]),
        ],
      );
      const created = {
        subscriptionId: subscription.id,
        customerId: subscription.customer_id,
        paymentMethodId: setup.payment_method_id,
      };
      if (!needsAuthentication) return { ...created, state: subscriptionState(subscription.status), actionClientSecret: null };

      // The first invoice's payment, confirmed with the saved card and now waiting for the bank's
      // authentication. Stored once per order: asked again, the same payment is handed back.
      const id = sandboxId('pi');
      const firstPayment = await this.store.insertOnce(
        manager,
        {
          id,
          object: 'payment_intent',
          orderId: order.id,
          idempotencyKey: idempotencyKey(order.id, 'confirm-first-payment'),
          clientSecret: clientSecretFor(id),
          status: 'requires_action',
          amountCents: firstChargeCents(order),
          currency: order.currency,
          customerId: setup.customer_id,
          paymentMethodId: setup.payment_method_id,
          card: setup.card,
        },
        () => [],
      );
      return {
        ...created,
        state: subscriptionState(subscription.status),
        actionClientSecret: firstPayment.status === 'requires_action' ? firstPayment.client_secret : null,
      };
    });
  }

  async readCharge(id: string): Promise<PaymentState> {
    const row = await this.retrieve('payment_intent', id);
    return intentState(row.status, row.last_error !== null);
  }

  async readCardSetup(id: string): Promise<PaymentState> {
    const row = await this.retrieve('setup_intent', id);
    return intentState(row.status, row.last_error !== null);
  }

  async readSubscription(id: string): Promise<SubscriptionState> {
    return subscriptionState((await this.retrieve('subscription', id)).status);
  }

  /**
   * The sandbox's invoices: a subscription's first (`in_` + the subscription's id, paid when it
   * became active) and its renewals (invoice objects the clock writes).
   */
  async readInvoice(id: string): Promise<SubscriptionInvoice | null> {
    if (!/^in_[0-9A-Za-z]{24}$/.test(id)) return null;
    return this.store.read(async (manager) => {
      const renewal = await this.store.find(manager, 'invoice', id);
      if (renewal) {
        const subscription = await this.store.findForOrder(manager, 'subscription', renewal.order_id);
        if (!subscription) return null;
        return {
          invoiceId: id,
          subscriptionId: subscription.id,
          paid: renewal.status === 'paid',
          first: false,
          amountCents: renewal.amount_cents ?? 0,
          currency: renewal.currency ?? CURRENCY.toLowerCase(),
          paidAt: renewal.status === 'paid' ? renewal.created_at : null,
        };
      }
      const subscription = await this.store.find(manager, 'subscription', `sub_${id.slice('in_'.length)}`);
      if (!subscription) return null;
      const paid = ['active', 'past_due', 'unpaid', 'canceled'].includes(subscriptionState(subscription.status));
      return {
        invoiceId: id,
        subscriptionId: subscription.id,
        paid,
        first: true,
        amountCents: chargedCents(subscription),
        currency: subscription.currency ?? CURRENCY.toLowerCase(),
        paidAt: paid ? subscription.created_at : null,
      };
    });
  }

  /** The card on the order's charge, subscription or card setup (the sandbox's records keep its last four digits and test outcome). */
  async savedCardOf(source: SavedCardSource): Promise<SavedCard | null> {
    return this.store.read(async (manager) => {
      for (const object of ['payment_intent', 'subscription', 'setup_intent'] as const) {
        const row = await this.store.findForOrder(manager, object, source.id);
        if (row?.payment_method_id && row.card && (object !== 'payment_intent' || row.status === 'succeeded')) {
          return { paymentMethodId: row.payment_method_id, customerId: row.customer_id, last4: row.card.last4 };
        }
      }
      return null;
    });
  }

  /**
   * A payment intent confirmed at once with the saved card, as Stripe would: it succeeds; a card
   * that asks on every payment (3184) waits for the buyer's authentication (completed through
   * /api/sandbox/next-action); a card that fails when charged (9995, 0341) is declined.
   */
  async chargeSavedCard(order: GatewayOrder, card: SavedCard): Promise<SavedCardCharge> {
    const saved = await this.store.transaction(async (manager) => {
      const source = await this.store.findByPaymentMethod(manager, card.paymentMethodId);
      return source?.card ?? null;
    });
    if (!saved) throw new PaymentRefusedError('This card is no longer saved. Please enter your card details.');
    const outcome = saved.outcome;
    const declined = outcome === 'insufficient_funds' || outcome === 'attaches_then_fails' || outcome === 'declined';
    const error = declined ? (outcome === 'insufficient_funds' ? CARD_ERRORS.insufficient_funds : CARD_ERRORS.declined) : null;
    const status = declined ? 'requires_payment_method' : outcome === 'always_authenticate' ? 'requires_action' : 'succeeded';
    const id = sandboxId('pi');
    const row = await this.store.transaction((manager) =>
      this.store.insertOnce(
        manager,
        {
          id,
          object: 'payment_intent',
          orderId: order.id,
          idempotencyKey: idempotencyKey(order.id, 'one-click-charge'),
          clientSecret: clientSecretFor(id),
          status,
          amountCents: order.amountCents,
          currency: order.currency,
          customerId: card.customerId,
          paymentMethodId: card.paymentMethodId,
          card: saved,
          lastError: error ? { ...error } : null,
        },
        (stored) => [
          stripeEvent('payment_intent.created', paymentIntentObject(stored)),
          ...(status === 'succeeded' ? [intentEvent('payment_intent', 'succeeded', stored)] : []),
          ...(declined ? [intentEvent('payment_intent', 'failed', stored)] : []),
          ...(status === 'requires_action' ? [intentEvent('payment_intent', 'requires_action', stored)] : []),
        ],
      ),
    );
    const state = intentState(row.status, row.last_error !== null);
    return {
      intentId: row.id,
      state,
      clientSecret: state === 'requires_action' ? row.client_secret : null,
      declineMessage: row.last_error?.message ?? null,
    };
  }

  /**
   * The instalments as a subscription of the order on the first charge's card, billed by the
   * sandbox's clock once a month `count` times and then canceled, as a Stripe subscription
   * schedule with `iterations` and end_behavior cancel would be.
   */
  async scheduleInstalments(request: InstalmentRequest): Promise<ScheduledInstalments> {
    const { order } = request;
    return this.store.transaction(async (manager) => {
      const charge = await this.store.find(manager, 'payment_intent', request.chargeId);
      if (!charge || charge.order_id !== order.id) throw new PaymentRefusedError('This payment belongs to another order.');
      if (charge.status !== 'succeeded') throw new PaymentRefusedError('The first instalment has not been paid.');
      // As the Stripe adapter: a plan scheduled before is answered with its schedule, whatever key made it.
      const earlier = await this.store.findForOrder(manager, 'subscription', order.id);
      if (earlier) return { scheduleId: earlier.id, subscriptionId: earlier.id };
      const subscription = await this.store.insertOnce(
        manager,
        {
          id: sandboxId('sub'),
          object: 'subscription',
          orderId: order.id,
          idempotencyKey: idempotencyKey(order.id, 'schedule-instalments'),
          clientSecret: null,
          status: 'active',
          amountCents: order.amountCents,
          currency: order.currency,
          customerId: charge.customer_id,
          paymentMethodId: charge.payment_method_id,
          card: charge.card,
          iterations: request.count,
        },
        (stored) => [stripeEvent('customer.subscription.created', subscriptionObject(stored, null))],
      );
      return { scheduleId: subscription.id, subscriptionId: subscription.id };
    });
  }

  /**
   * Cancels the plan's subscription (the sandbox's schedule) at once, with Stripe's
   * customer.subscription.deleted event: the sandbox's clock charges it no more.
   */
  async stopInstalments(plan: InstalmentPlanRef): Promise<StoppedInstalments> {
    const id = plan.scheduleId ?? plan.subscriptionId;
    if (!id) return 'already ended';
    const row = await this.store.read((manager) => this.store.find(manager, 'subscription', id));
    if (!row || row.order_id !== plan.orderId) throw new PaymentRefusedError('No instalment plan of this order has this id.');
    if (ENDED_SUBSCRIPTION_STATUSES.has(row.status)) return 'already ended';
    await this.cancelSubscriptionNow(id);
    return 'stopped';
  }

  /** The sandbox's own objects of the order: its succeeded charge, or its subscription once its first invoice was paid. */
  async firstPaymentOf({ orderId, kind }: FirstPaymentQuery): Promise<FoundFirstPayment | null> {
    return this.store.read(async (manager) => {
      if (kind === 'one-time') {
        const charge = await this.store.findForOrder(manager, 'payment_intent', orderId);
        return charge?.status === 'succeeded' ? { object: 'charge', id: charge.id } : null;
      }
      const subscription = await this.store.findForOrder(manager, 'subscription', orderId);
      const unpaidFirst = !subscription || subscription.status === 'incomplete' || subscription.status === 'incomplete_expired';
      return unpaidFirst ? null : { object: 'subscription', id: subscription.id };
    });
  }

  async hasUnpaidInvoices(subscriptionId: string): Promise<boolean> {
    return this.store.read(async (manager) => {
      const subscription = await this.store.find(manager, 'subscription', subscriptionId);
      return subscription !== null && (await this.store.countUnpaidInvoices(manager, subscription.order_id)) > 0;
    });
  }

  async readSubscriptionTerms(id: string): Promise<SubscriptionTerms> {
    return this.store.read(async (manager) => {
      const row = await this.store.find(manager, 'subscription', id);
      if (!row) throw new Error('No such sandbox subscription');
      return { cancelAtPeriodEnd: row.cancel_at_period_end, currentPeriodEnd: await this.periodEnd(manager, row), billingCycleAnchor: row.created_at };
    });
  }

  /**
   * Sets the flag as Stripe does, with its `customer.subscription.updated` event when it changes;
   * the sandbox clock ends such a subscription when its period is over. Setting it to what it
   * already is changes nothing and says nothing, so a retried request is harmless.
   */
  async setCancelAtPeriodEnd(orderId: string, subscriptionId: string, cancel: boolean): Promise<SubscriptionTerms> {
    return this.store.transaction(async (manager) => {
      const row = await this.store.find(manager, 'subscription', subscriptionId, true);
      if (!row || row.order_id !== orderId) throw new PaymentRefusedError('No subscription of this order has this id.');
      if (ENDED_SUBSCRIPTION_STATUSES.has(row.status)) throw new PaymentRefusedError('This membership has already ended.');
      const periodEnd = await this.periodEnd(manager, row);
      if (row.cancel_at_period_end !== cancel) {
        await this.store.setCancelAtPeriodEnd(manager, row, cancel, (updated) => [
          stripeEvent('customer.subscription.updated', subscriptionObject(updated, null, periodEnd)),
        ]);
      }
      return { cancelAtPeriodEnd: cancel, currentPeriodEnd: periodEnd };
    });
  }

  /** As Stripe's pause_collection (behavior void): the clock voids the renewals falling due before `resumesAt`, and charges again after. */
  async pauseCollection(orderId: string, subscriptionId: string, resumesAt: Date): Promise<void> {
    await this.changeRetention(orderId, subscriptionId, (row) => ({
      pause_resumes_at: resumesAt,
      next_renewal_off_cents: row.next_renewal_off_cents ?? null,
    }));
  }

  /** As a Stripe coupon of duration once: the clock takes it off the next renewal it charges, and only that one. */
  async discountNextRenewal(orderId: string, subscriptionId: string, discount: RenewalDiscount): Promise<void> {
    await this.changeRetention(orderId, subscriptionId, (row) => {
      const price = row.full_amount_cents ?? row.amount_cents ?? 0;
      const off = discount.percentOff !== null ? Math.round((price * discount.percentOff) / 100) : (discount.amountOffCents ?? 0);
      return { pause_resumes_at: row.pause_resumes_at ?? null, next_renewal_off_cents: Math.min(off, price) };
    });
  }

  private async changeRetention(
    orderId: string,
    subscriptionId: string,
    change: (row: SandboxObjectRow) => Required<Pick<SandboxObjectRow, 'pause_resumes_at' | 'next_renewal_off_cents'>>,
  ): Promise<void> {
    await this.store.transaction(async (manager) => {
      const row = await this.store.find(manager, 'subscription', subscriptionId, true);
      if (!row || row.order_id !== orderId) throw new PaymentRefusedError('No subscription of this order has this id.');
      if (ENDED_SUBSCRIPTION_STATUSES.has(row.status)) throw new PaymentRefusedError('This membership has already ended.');
      const periodEnd = await this.periodEnd(manager, row);
      await this.store.setRetention(manager, row, change(row), (updated) => [
        stripeEvent('customer.subscription.updated', subscriptionObject(updated, null, periodEnd)),
      ]);
    });
  }

  /** A setup intent of the order for its customer, confirmed by the sandbox's 'Test mode' card form as at checkout. */
  async createCardUpdate(orderId: string, customerId: string, requestId: string): Promise<CreatedCardUpdate> {
    const id = sandboxId('seti');
    const row = await this.store.transaction(async (manager) => {
      const subscription = await this.store.findForOrder(manager, 'subscription', orderId);
      if (!subscription) throw new PaymentRefusedError('This membership has no subscription to update.');
      return this.store.insertOnce(
        manager,
        {
          id,
          object: 'setup_intent',
          orderId,
          idempotencyKey: idempotencyKey(orderId, `card-update:${requestId}`),
          clientSecret: clientSecretFor(id),
          status: 'requires_payment_method',
          amountCents: 0,
          currency: subscription.currency ?? CURRENCY.toLowerCase(),
          customerId,
        },
        (stored) => [stripeEvent('setup_intent.created', setupIntentObject(stored))],
      );
    });
    return { setupId: row.id, clientSecret: row.client_secret as string };
  }

  /** The confirmed card becomes the subscription's (its next renewals are charged to it), with Stripe's update event. */
  async applyCardUpdate(orderId: string, subscriptionId: string, setupId: string): Promise<void> {
    await this.store.transaction(async (manager) => {
      const setup = await this.store.find(manager, 'setup_intent', setupId);
      if (!setup || setup.order_id !== orderId || setup.status !== 'succeeded' || !setup.payment_method_id) {
        throw new PaymentRefusedError('Your new card has not been confirmed yet. Please complete the card details and try again.');
      }
      const subscription = await this.store.find(manager, 'subscription', subscriptionId, true);
      if (!subscription || subscription.order_id !== orderId) throw new PaymentRefusedError('No subscription of this order has this id.');
      if (subscription.payment_method_id === setup.payment_method_id) return;
      const periodEnd = await this.periodEnd(manager, subscription);
      await this.store.update(
        manager,
        subscription,
        { status: subscription.status, payment_method_id: setup.payment_method_id, card: setup.card, last_error: subscription.last_error },
        (updated) => [stripeEvent('customer.subscription.updated', subscriptionObject(updated, null, periodEnd))],
      );
    });
  }

  /**
   * Refunds at once (no bank is involved): a refund record naming the payment it refunds, with
   * Stripe's refund.created and charge.refunded events, in one transaction. The payment is a
   * one-time charge, a subscription (its first payment) or a renewal invoice; the request's key is
   * the refund's idempotency key, so asked again it answers with the same refund.
   */
  async refund(request: RefundRequest): Promise<Refund> {
    return this.store.transaction(async (manager) => {
      // The payment's lock first: a request sent twice at once finds the first one's refund.
      const payment = await this.paidObject(manager, request.paymentId);
      if (!payment || payment.order_id !== request.orderId) throw new PaymentRefusedError('No payment of this order has this id.');
      const key = refundIdempotencyKey(request.requestKey);
      const earlier = await this.store.findByIdempotencyKey(manager, key);
      if (earlier) return refundOf(earlier);
      const charged = chargedCents(payment);
      const refunded = (await this.store.refundsOf(manager, payment.id))
        .filter((r) => r.status === 'succeeded')
        .reduce((sum, r) => sum + (r.amount_cents ?? 0), 0);
      const left = charged - refunded;
      const amountCents = request.amountCents ?? left;
      if (!Number.isInteger(amountCents) || amountCents < 1 || amountCents > left) {
        throw new PaymentRefusedError(
          left > 0 ? `A refund of this payment is between 1 and ${left} cents.` : 'This payment has already been refunded in full.',
        );
      }
      const refund = await this.store.insertOnce(
        manager,
        {
          id: sandboxId('re'),
          object: 'refund',
          orderId: request.orderId,
          idempotencyKey: key,
          clientSecret: null,
          status: 'succeeded',
          amountCents,
          currency: payment.currency ?? '',
          customerId: payment.customer_id,
          refundedId: payment.id,
        },
        (stored) => [
          stripeEvent('refund.created', refundObject(stored, payment.id, request.requestKey)),
          stripeEvent('charge.refunded', refundedChargeObject(payment, refunded + amountCents)),
        ],
      );
      return refundOf(refund);
    });
  }

  async readRefund(id: string): Promise<Refund | null> {
    const row = await this.store.read((manager) => this.store.find(manager, 'refund', id));
    return row && refundOf(row);
  }

  async refundsOfPayment(id: string): Promise<Refund[]> {
    const rows = await this.store.read((manager) => this.store.refundsOf(manager, id));
    return rows.map(refundOf);
  }

  /** A dispute the sandbox filed against a payment of test card 0259, as it stands (see sandbox-disputes.ts). */
  async readDispute(id: string): Promise<Dispute | null> {
    const row = await this.store.read((manager) => this.store.find(manager, 'dispute', id));
    return row && disputeOf(row);
  }

  /** Ends the subscription now, with Stripe's customer.subscription.deleted event; one already ended stays as it is. */
  async cancelSubscriptionNow(subscriptionId: string): Promise<SubscriptionState> {
    return this.store.transaction(async (manager) => {
      const row = await this.store.find(manager, 'subscription', subscriptionId, true);
      if (!row) throw new Error('No such sandbox subscription');
      if (ENDED_SUBSCRIPTION_STATUSES.has(row.status)) return subscriptionState(row.status);
      const updated = await this.store.update(
        manager,
        row,
        { status: 'canceled', payment_method_id: row.payment_method_id, card: row.card, last_error: row.last_error },
        (canceled) => [stripeEvent('customer.subscription.deleted', subscriptionObject(canceled, null))],
      );
      return subscriptionState(updated.status);
    });
  }

  /** A paid payment by the id our payments table holds: a succeeded charge, a paid subscription (its first payment) or a paid renewal invoice; locked. */
  private async paidObject(manager: EntityManager, paymentId: string): Promise<SandboxObjectRow | null> {
    const kind = paymentId.startsWith('pi_') ? 'payment_intent' : paymentId.startsWith('sub_') ? 'subscription' : 'invoice';
    const row = await this.store.find(manager, kind, paymentId, true);
    if (!row) return null;
    const paid =
      kind === 'payment_intent'
        ? row.status === 'succeeded'
        : kind === 'invoice'
          ? row.status === 'paid'
          : ['active', 'past_due', 'unpaid', 'canceled'].includes(subscriptionState(row.status));
    if (!paid) throw new PaymentRefusedError('Only a payment that succeeded can be refunded.');
    return row;
  }

  /** There is no sandbox page to manage a card or subscription on, and pretending one exists would mislead. */
  openBillingPortal(): Promise<BillingPortalSession> {
    return Promise.reject(new PaymentUnsupportedError('The payment sandbox has no billing portal; configure Stripe keys to use one.'));
  }

  /**
   * What Stripe does when a customer is deleted, on the sandbox's records (which hold no name or
   * e-mail): its subscriptions still running are canceled, with Stripe's
   * customer.subscription.deleted event, and its saved cards are gone. Nothing left to change
   * is 'already deleted'.
   */
  async forgetCustomer(customerId: string): Promise<ForgottenCustomer> {
    return this.store.transaction(async (manager) => {
      let changed = false;
      for (const row of await this.store.findByCustomer(manager, customerId, true)) {
        const cancel = row.object === 'subscription' && !ENDED_SUBSCRIPTION_STATUSES.has(row.status);
        if (!cancel && row.payment_method_id === null && row.card === null) continue;
        changed = true;
        await this.store.update(
          manager,
          row,
          { status: cancel ? 'canceled' : row.status, payment_method_id: null, card: null, last_error: row.last_error },
          (updated) => (cancel ? [stripeEvent('customer.subscription.deleted', subscriptionObject(updated, null))] : []),
        );
      }
      return changed ? 'deleted' : 'already deleted';
    });
  }

  /** The sandbox clock's time. */
  now(): Promise<Date> {
    return this.store.now();
  }

  private async retrieve(object: 'payment_intent' | 'setup_intent' | 'subscription', id: string): Promise<SandboxObjectRow> {
    const row = await this.store.read((manager) => this.store.find(manager, object, id));
    if (!row) throw new Error(`No such sandbox ${object}`);
    return row;
  }

  private async periodEnd(manager: EntityManager, subscription: SandboxObjectRow): Promise<Date> {
    return currentPeriodEnd(subscription, await this.store.countForOrder(manager, 'invoice', subscription.order_id));
  }

  private customerFor(order: GatewayOrder): string {
    return order.customerId ?? sandboxId('cus');
  }
}
