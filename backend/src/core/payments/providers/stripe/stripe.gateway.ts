import Stripe from 'stripe';
import { ConfigError, STRIPE_KEYS_REQUIRED } from '../../../config/app-config';
import type { StripeConfig } from '../../../config/config-sections';
import {
  BillingPortalSession,
  CreatedCardUpdate,
  CreatedIntent,
  CreatedSubscription,
  Dispute,
  firstChargeCents,
  FirstPaymentQuery,
  ForgottenCustomer,
  FoundFirstPayment,
  GatewayOrder,
  idempotencyKey,
  InstalmentPlanRef,
  InstalmentRequest,
  PaymentGateway,
  PaymentRefusedError,
  PaymentState,
  Refund,
  RenewalDiscount,
  refundIdempotencyKey,
  RefundRequest,
  SavedCard,
  SavedCardCharge,
  SavedCardSource,
  ScheduledInstalments,
  StoppedInstalments,
  SubscriptionInvoice,
  SubscriptionState,
  SubscriptionTerms,
} from '../../payment-gateway';
import { addMonths } from '../../billing-calendar';
import { stripeClient } from './stripe-client';
import { isSubscribedStripeEvent } from './stripe-events';
import { promotionCodeFor, saveOfferCouponFor } from './stripe-coupons';
import { addOnPriceFor, recurringPriceFor } from './stripe-prices';
import { disputeOutcome, intentState, refundState, subscriptionState } from './stripe-states';
import { StripeWire } from './stripe-wire';

/** The Stripe adapter of this configuration; its keys come together or not at all. */
export function createStripeGateway(config: StripeConfig): StripeGateway {
  if (!config.STRIPE_SECRET_KEY || !config.STRIPE_PUBLISHABLE_KEY || !config.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError(STRIPE_KEYS_REQUIRED);
  }
  return new StripeGateway(
    stripeClient(config),
    config.STRIPE_PUBLISHABLE_KEY,
    config.STRIPE_WEBHOOK_SECRET,
    isLiveKey(config.STRIPE_SECRET_KEY),
    config.STRIPE_PORTAL_CONFIGURATION,
  );
}

/** Stripe's secret and restricted keys name their mode: sk_live_…/rk_live_… move real money. */
export const isLiveKey = (secretKey: string): boolean => /^(sk|rk)_live_/.test(secretKey);

const metadataOf = (order: GatewayOrder) => ({
  order_id: order.id,
  plan_id: order.plan.id,
  ...(order.discount && { coupon_code: order.discount.code }),
  ...(order.bump && { bump_plan_id: order.bump.planId }),
});

/**
 * Stripe: subscriptions start with a SetupIntent (card saved off-session) and are created by
 * confirm-subscription; one-time plans are a PaymentIntent that also saves the card on the
 * customer, so a later upgrade can reuse it.
 */
export class StripeGateway extends StripeWire implements PaymentGateway {
  readonly provider = 'stripe' as const;

  constructor(
    private readonly stripe: Stripe,
    readonly publishableKey: string,
    webhookSecret: string,
    /** Live keys move real money; test-mode keys (sk_test_…) make test orders. */
    readonly livemode = false,
    /** The Customer Portal configuration `npm run stripe:setup` made; unset, the account's default one. */
    private readonly portalConfiguration?: string,
  ) {
    // Only the types the endpoint subscribes to: `stripe listen` forwards every type, and the
    // local run should act as production does.
    super(webhookSecret, isSubscribedStripeEvent);
  }

  async createCardSetup(order: GatewayOrder): Promise<CreatedIntent> {
    const customerId = await this.customerFor(order);
    const intent = await this.stripe.setupIntents.create(
      { customer: customerId, usage: 'off_session', automatic_payment_methods: { enabled: true }, metadata: metadataOf(order) },
      { idempotencyKey: idempotencyKey(order.id, 'create-setup-intent') },
    );
    return { intentId: intent.id, clientSecret: requireSecret(intent.client_secret), customerId };
  }

  async createCharge(order: GatewayOrder): Promise<CreatedIntent> {
    const customerId = await this.customerFor(order);
    const intent = await this.stripe.paymentIntents.create(
      {
        // One charge of the plan and the add-on the buyer ticked.
        amount: firstChargeCents(order),
        currency: order.currency,
        customer: customerId,
        setup_future_usage: 'off_session',
        automatic_payment_methods: { enabled: true },
        description: order.bump ? `${order.plan.name} + ${order.bump.name}` : order.plan.name,
        metadata: metadataOf(order),
      },
      { idempotencyKey: idempotencyKey(order.id, 'create-payment-intent') },
    );
    return { intentId: intent.id, clientSecret: requireSecret(intent.client_secret), customerId };
  }

  async createSubscription(order: GatewayOrder, setupId: string): Promise<CreatedSubscription> {
    const setup = await this.stripe.setupIntents.retrieve(setupId);
    if (setup.metadata?.order_id !== order.id) throw new PaymentRefusedError('This card confirmation belongs to another checkout.');
    if (setup.status !== 'succeeded')
      throw new PaymentRefusedError('Your card has not been confirmed yet. Please complete the card details and try again.');
    const paymentMethodId = idOf(setup.payment_method);
    const customerId = idOf(setup.customer) ?? order.customerId;
    if (!paymentMethodId || !customerId)
      throw new PaymentRefusedError('Your card has not been confirmed yet. Please complete the card details and try again.');

    // The card the buyer just confirmed pays this subscription (default_payment_method below);
    // the customer's own default card is never changed. default_incomplete leaves the first
    // invoice's payment to us: it is confirmed below, while the buyer is still on the page, so a
    // bank asking for 3-D Secure gets its answer in the browser instead of leaving a subscription
    // nobody can complete.
    // A coupon'd order's amountCents is its discounted first charge: the Price is the plan's full
    // price, and Stripe applies the coupon through its promotion code for the coupon's months.
    const discount = order.discount;
    const price = await recurringPriceFor(this.stripe, discount ? { ...order, amountCents: discount.fullAmountCents } : order);
    const promotionCode = discount ? await promotionCodeFor(this.stripe, discount, order.currency) : null;
    // The add-on the buyer ticked is a line of the first invoice only, paid in the same confirmation;
    // our coupons discount the plan, not the add-on.
    const addOn = order.bump ? await addOnPriceFor(this.stripe, order.bump, order.currency) : null;
    const subscription = await this.stripe.subscriptions.create(
      {
        customer: customerId,
        items: [{ price: price.id }],
        ...(addOn && { add_invoice_items: [{ price: addOn.id, discountable: false }] }),
        ...(promotionCode && { discounts: [{ promotion_code: promotionCode }] }),
        default_payment_method: paymentMethodId,
        payment_behavior: 'default_incomplete',
        metadata: metadataOf(order),
        expand: ['latest_invoice.payments'],
      },
      { idempotencyKey: idempotencyKey(order.id, 'create-subscription') },
    );
    const created = { subscriptionId: subscription.id, customerId, paymentMethodId };
    const firstPaymentId = subscription.status === 'incomplete' ? firstPaymentIdOf(subscription) : null;
    // The invoice lists its payment by id only: its status says whether it waits for us.
    const firstPayment = firstPaymentId ? await this.stripe.paymentIntents.retrieve(firstPaymentId) : null;
    if (!firstPayment || !CONFIRMABLE.has(firstPayment.status)) {
      return { ...created, state: subscriptionState(subscription.status), actionClientSecret: null };
    }
    const paid = await this.confirmFirstPayment(order, firstPayment.id, paymentMethodId);
    if (paid.status === 'requires_action') {
      return { ...created, state: 'incomplete', actionClientSecret: requireSecret(paid.client_secret) };
    }
    // Paid, or declined (the subscription stays incomplete and verification says so): Stripe has
    // moved the subscription on by now, so its state is read again rather than guessed.
    const current = paid.status === 'succeeded' ? await this.stripe.subscriptions.retrieve(subscription.id) : subscription;
    return { ...created, state: subscriptionState(current.status), actionClientSecret: null };
  }

  /** Confirms the first invoice's PaymentIntent with the card just saved; a decline is an outcome, not an error. */
  private async confirmFirstPayment(
    order: GatewayOrder,
    paymentIntentId: string,
    paymentMethodId: string,
  ): Promise<Pick<Stripe.PaymentIntent, 'status' | 'client_secret'>> {
    try {
      return await this.stripe.paymentIntents.confirm(
        paymentIntentId,
        { payment_method: paymentMethodId },
        { idempotencyKey: idempotencyKey(order.id, 'confirm-first-payment') },
      );
    } catch (err) {
      if ((err as { type?: string }).type === 'StripeCardError') return { status: 'requires_payment_method', client_secret: null };
      throw err;
    }
  }

  async readCharge(id: string): Promise<PaymentState> {
    const intent = await this.stripe.paymentIntents.retrieve(id);
    return intentState(intent.status, Boolean(intent.last_payment_error));
  }

  async readCardSetup(id: string): Promise<PaymentState> {
    const intent = await this.stripe.setupIntents.retrieve(id);
    return intentState(intent.status, Boolean(intent.last_setup_error));
  }

  async readSubscription(id: string): Promise<SubscriptionState> {
    const subscription = await this.stripe.subscriptions.retrieve(id);
    return subscriptionState(subscription.status);
  }

  /** An invoice of a subscription; its first is the one Stripe made when the subscription was created. */
  async readInvoice(id: string): Promise<SubscriptionInvoice | null> {
    let invoice: Stripe.Invoice;
    try {
      invoice = await this.stripe.invoices.retrieve(id);
    } catch (err) {
      if ((err as { code?: string }).code === 'resource_missing') return null;
      throw err;
    }
    const subscriptionId = subscriptionIdOf(invoice);
    if (!subscriptionId) return null;
    const paidAt = invoice.status_transitions?.paid_at;
    return {
      invoiceId: invoice.id ?? id,
      subscriptionId,
      paid: invoice.status === 'paid',
      first: invoice.billing_reason === 'subscription_create',
      // What it charged, or for an unpaid one what it asks.
      amountCents: invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_due,
      currency: invoice.currency,
      paidAt: typeof paidAt === 'number' ? new Date(paidAt * 1000) : null,
    };
  }

  /**
   * The card the order's charge or subscription was paid with, if it is still attached to the
   * order's customer (a card the buyer removed in the portal is not offered again).
   */
  async savedCardOf(source: SavedCardSource): Promise<SavedCard | null> {
    let paymentMethodId = source.paymentMethodId;
    if (!paymentMethodId && source.chargeId)
      paymentMethodId = idOf((await this.stripe.paymentIntents.retrieve(source.chargeId)).payment_method);
    if (!paymentMethodId) return null;
    const method = await this.stripe.paymentMethods.retrieve(paymentMethodId);
    const customerId = idOf(method.customer);
    if (!customerId || !method.card || (source.customerId && customerId !== source.customerId)) return null;
    return { paymentMethodId: method.id, customerId, last4: method.card.last4 };
  }

  async chargeSavedCard(order: GatewayOrder, card: SavedCard): Promise<SavedCardCharge> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: order.amountCents,
          currency: order.currency,
          customer: card.customerId,
          payment_method: card.paymentMethodId,
          allowed_payment_method_types: ['card'],
          confirm: true,
          description: order.plan.name,
          metadata: { ...metadataOf(order), one_click: 'true' },
        },
        { idempotencyKey: idempotencyKey(order.id, 'one-click-charge') },
      );
      const state = intentState(intent.status, Boolean(intent.last_payment_error));
      return { intentId: intent.id, state, clientSecret: state === 'requires_action' ? intent.client_secret : null, declineMessage: null };
    } catch (err) {
      // A decline is an outcome: Stripe answers 402 with the PaymentIntent it made.
      const error = err as { type?: string; message?: string; raw?: { payment_intent?: { id?: string } } };
      const intentId = error.raw?.payment_intent?.id;
      if (error.type === 'StripeCardError' && intentId) {
        return { intentId, state: 'failed', clientSecret: null, declineMessage: error.message ?? null };
      }
      throw err;
    }
  }

  /**
   * A subscription schedule that starts a month after the first charge and bills the plan's
   * monthly Price `count` times on the card of that charge, then cancels (end_behavior). Its
   * subscription, created by Stripe when the schedule starts, carries our order id, so its
   * invoices are recorded as this order's payments.
   */
  async scheduleInstalments(request: InstalmentRequest): Promise<ScheduledInstalments> {
    const { order } = request;
    const charge = await this.stripe.paymentIntents.retrieve(request.chargeId);
    if (charge.metadata?.order_id !== order.id) throw new PaymentRefusedError('This payment belongs to another order.');
    if (charge.status !== 'succeeded') throw new PaymentRefusedError('The first instalment has not been paid.');
    const paymentMethodId = idOf(charge.payment_method);
    const customerId = idOf(charge.customer) ?? order.customerId;
    if (!paymentMethodId || !customerId) throw new PaymentRefusedError('The first instalment left no card to charge the others on.');
    // Stripe forgets an idempotency key after 24 hours: a create whose answer was lost and is
    // retried later (the admin's Retry of a job that gave up) would make a second schedule.
    const earlier = await this.scheduleOf(order.id, customerId);
    if (earlier) return { scheduleId: earlier.id, subscriptionId: idOf(earlier.subscription) };
    const price = await recurringPriceFor(this.stripe, order);
    const schedule = await this.stripe.subscriptionSchedules.create(
      {
        customer: customerId,
        start_date: Math.floor(addMonths(request.firstPaidAt, 1).getTime() / 1000),
        end_behavior: 'cancel',
        default_settings: { default_payment_method: paymentMethodId },
        // The plan's monthly Price billed `count` times: a phase of `count` months.
        phases: [
          { items: [{ price: price.id }], duration: { interval: 'month', interval_count: request.count }, metadata: metadataOf(order) },
        ],
        metadata: metadataOf(order),
      },
      { idempotencyKey: idempotencyKey(order.id, 'schedule-instalments') },
    );
    return { scheduleId: schedule.id, subscriptionId: idOf(schedule.subscription) };
  }

  /** The customer's schedule made for this order (its metadata names it), in any status; null when none was made. */
  private async scheduleOf(orderId: string, customerId: string): Promise<Stripe.SubscriptionSchedule | null> {
    for await (const schedule of this.stripe.subscriptionSchedules.list({ customer: customerId, limit: 100 })) {
      if (schedule.metadata?.order_id === orderId) return schedule;
    }
    return null;
  }

  /**
   * Cancels the plan's schedule: Stripe cancels the subscription it started with it. A schedule
   * Stripe no longer runs (canceled by an earlier attempt, completed) is 'already ended', unless it
   * was released and left its subscription running, which is canceled then. A plan scheduled
   * before its schedule's id was kept is stopped through its subscription.
   */
  async stopInstalments(plan: InstalmentPlanRef, idempotencyKey: string): Promise<StoppedInstalments> {
    let subscriptionId = plan.subscriptionId;
    if (plan.scheduleId) {
      try {
        await this.stripe.subscriptionSchedules.cancel(plan.scheduleId, {}, { idempotencyKey });
        return 'stopped';
      } catch (err) {
        if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw err;
        // A schedule Stripe no longer has (its customer deleted by an erasure) charges nothing.
        if (err.code === 'resource_missing') return 'already ended';
        const schedule = await this.stripe.subscriptionSchedules.retrieve(plan.scheduleId);
        if (schedule.status === 'active' || schedule.status === 'not_started') throw err;
        if (schedule.status !== 'released') return 'already ended';
        subscriptionId = idOf(schedule.subscription) ?? subscriptionId;
      }
    }
    if (!subscriptionId) return 'already ended';
    if ((await this.readSubscription(subscriptionId)) === 'canceled') return 'already ended';
    await this.cancelSubscriptionNow(subscriptionId, `${idempotencyKey}:subscription`);
    return 'stopped';
  }

  /**
   * Found with Stripe's search by `metadata['order_id']` (every PaymentIntent and Subscription this
   * adapter creates carries it): a one-time order's succeeded PaymentIntent, a subscription
   * order's subscription once its first invoice was paid (no longer incomplete). Stripe's search
   * lags writes by up to a minute, which does not matter for payments recorded long ago.
   */
  async firstPaymentOf({ orderId, kind }: FirstPaymentQuery): Promise<FoundFirstPayment | null> {
    const query = `metadata['order_id']:'${orderId}'`;
    if (kind === 'one-time') {
      for await (const intent of this.stripe.paymentIntents.search({ query, limit: 100 })) {
        if (intent.status === 'succeeded' && intent.metadata?.order_id === orderId) return { object: 'charge', id: intent.id };
      }
      return null;
    }
    for await (const subscription of this.stripe.subscriptions.search({ query, limit: 100 })) {
      const unpaidFirst = subscription.status === 'incomplete' || subscription.status === 'incomplete_expired';
      if (!unpaidFirst && subscription.metadata?.order_id === orderId) return { object: 'subscription', id: subscription.id };
    }
    return null;
  }

  async hasUnpaidInvoices(subscriptionId: string): Promise<boolean> {
    for (const status of ['open', 'uncollectible'] as const) {
      const found = await this.stripe.invoices.list({ subscription: subscriptionId, status, limit: 1 });
      if (found.data.length > 0) return true;
    }
    return false;
  }

  async readSubscriptionTerms(id: string): Promise<SubscriptionTerms> {
    const subscription = await this.stripe.subscriptions.retrieve(id);
    const anchor = subscription.billing_cycle_anchor;
    return { ...termsOf(subscription), billingCycleAnchor: typeof anchor === 'number' ? new Date(anchor * 1000) : null };
  }

  async setCancelAtPeriodEnd(orderId: string, subscriptionId: string, cancel: boolean, requestId: string): Promise<SubscriptionTerms> {
    const subscription = await this.stripe.subscriptions.update(
      subscriptionId,
      { cancel_at_period_end: cancel },
      { idempotencyKey: idempotencyKey(orderId, `cancel-at-period-end:${cancel}:${requestId}`) },
    );
    return termsOf(subscription);
  }

  /** `pause_collection` with behavior void: Stripe voids the invoices of the pause and resumes charging at `resumesAt`. */
  async pauseCollection(orderId: string, subscriptionId: string, resumesAt: Date, requestId: string): Promise<void> {
    await this.stripe.subscriptions.update(
      subscriptionId,
      { pause_collection: { behavior: 'void', resumes_at: Math.floor(resumesAt.getTime() / 1000) } },
      { idempotencyKey: idempotencyKey(orderId, `pause-collection:${requestId}`) },
    );
  }

  /** The save offer's coupon (duration once) as the subscription's discount: Stripe applies it to the next invoice only. */
  async discountNextRenewal(orderId: string, subscriptionId: string, discount: RenewalDiscount, requestId: string): Promise<void> {
    // An amount off is in the subscription's currency; a percentage needs none.
    const currency = discount.percentOff === null ? (await this.stripe.subscriptions.retrieve(subscriptionId)).currency : '';
    const coupon = await saveOfferCouponFor(this.stripe, discount, currency);
    await this.stripe.subscriptions.update(
      subscriptionId,
      { discounts: [{ coupon }] },
      { idempotencyKey: idempotencyKey(orderId, `save-offer:${requestId}`) },
    );
  }

  async createCardUpdate(orderId: string, customerId: string, requestId: string): Promise<CreatedCardUpdate> {
    const intent = await this.stripe.setupIntents.create(
      {
        customer: customerId,
        usage: 'off_session',
        automatic_payment_methods: { enabled: true },
        metadata: { order_id: orderId, purpose: 'card-update' },
      },
      { idempotencyKey: idempotencyKey(orderId, `card-update:${requestId}`) },
    );
    return { setupId: intent.id, clientSecret: requireSecret(intent.client_secret) };
  }

  async applyCardUpdate(orderId: string, subscriptionId: string, setupId: string): Promise<void> {
    const setup = await this.stripe.setupIntents.retrieve(setupId);
    const paymentMethodId = idOf(setup.payment_method);
    if (setup.metadata?.order_id !== orderId || setup.status !== 'succeeded' || !paymentMethodId) {
      throw new PaymentRefusedError('Your new card has not been confirmed yet. Please complete the card details and try again.');
    }
    await this.stripe.subscriptions.update(
      subscriptionId,
      { default_payment_method: paymentMethodId },
      { idempotencyKey: idempotencyKey(orderId, `apply-card-update:${setupId}`) },
    );
  }

  async refund(request: RefundRequest): Promise<Refund> {
    const paymentIntent = await this.paymentIntentOf(request.paymentId);
    let refund: Stripe.Refund;
    try {
      refund = await this.stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          amount: request.amountCents,
          metadata: { order_id: request.orderId, refund_request: request.requestKey },
        },
        { idempotencyKey: refundIdempotencyKey(request.requestKey) },
      );
    } catch (err) {
      // Stripe refuses a refund above what is left of the charge, or of a charge already refunded, for good.
      const code = (err as { code?: string }).code;
      if (code === 'charge_already_refunded' || code === 'amount_too_large' || code === 'charge_disputed' || code === 'resource_missing') {
        throw new PaymentRefusedError((err as Error).message);
      }
      throw err;
    }
    return this.refundOf(refund);
  }

  async readRefund(id: string): Promise<Refund | null> {
    const refund = await orNull(this.stripe.refunds.retrieve(id));
    return refund && this.refundOf(refund);
  }

  /** A charge's (`ch_…`) or payment intent's refunds: the object of `charge.refunded` is a charge. */
  async refundsOfPayment(id: string): Promise<Refund[]> {
    const refunds = await this.stripe.refunds.list(id.startsWith('pi_') ? { payment_intent: id, limit: 100 } : { charge: id, limit: 100 });
    return Promise.all(refunds.data.map((refund) => this.refundOf(refund)));
  }

  async readDispute(id: string): Promise<Dispute | null> {
    const dispute = await orNull(this.stripe.disputes.retrieve(id));
    if (!dispute) return null;
    let paymentIntent = idOf(dispute.payment_intent);
    if (!paymentIntent) paymentIntent = idOf((await this.stripe.charges.retrieve(idOf(dispute.charge) ?? '')).payment_intent);
    return {
      disputeId: dispute.id,
      outcome: disputeOutcome(dispute.status, dispute.payment_method_details?.card?.case_type),
      amountCents: dispute.amount,
      currency: dispute.currency,
      paymentIds: paymentIntent ? await this.paymentIdsOf(paymentIntent) : [],
    };
  }

  async cancelSubscriptionNow(subscriptionId: string, idempotencyKey: string): Promise<SubscriptionState> {
    try {
      const subscription = await this.stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey });
      return subscriptionState(subscription.status);
    } catch (err) {
      // Canceled before (by us on an earlier attempt, or in the dashboard): Stripe refuses a second cancel.
      if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw err;
      const state = await this.readSubscription(subscriptionId);
      if (state !== 'canceled') throw err;
      return state;
    }
  }

  private async refundOf(refund: Stripe.Refund): Promise<Refund> {
    let paymentIntent = idOf(refund.payment_intent);
    if (!paymentIntent && refund.charge)
      paymentIntent = idOf((await this.stripe.charges.retrieve(idOf(refund.charge) ?? '')).payment_intent);
    const requestKey = refund.metadata?.refund_request;
    return {
      refundId: refund.id,
      state: refundState(refund.status),
      amountCents: refund.amount,
      currency: refund.currency,
      paymentIds: paymentIntent ? await this.paymentIdsOf(paymentIntent) : [],
      requestKey: typeof requestKey === 'string' && requestKey ? requestKey : null,
    };
  }

  /**
   * The ids our payments table may know a charge by: a subscription's invoice is recorded under
   * the invoice's id, and its first one under the subscription's (see OrderLifecycle).
   */
  private async paymentIdsOf(paymentIntentId: string): Promise<string[]> {
    // An invoice lists the payment intents that paid it; a one-time charge is on no invoice.
    const payments = await this.stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: paymentIntentId },
      limit: 1,
    });
    const invoiceId = idOf(payments.data[0]?.invoice);
    if (!invoiceId) return [paymentIntentId];
    const invoice = await this.stripe.invoices.retrieve(invoiceId);
    const subscriptionId = subscriptionIdOf(invoice);
    const first = invoice.billing_reason === 'subscription_create' && subscriptionId;
    return first ? [invoiceId, paymentIntentId, subscriptionId] : [invoiceId, paymentIntentId];
  }

  /** The payment intent of a payment as our payments table names it: a charge, an invoice, or a subscription's first invoice. */
  private async paymentIntentOf(paymentId: string): Promise<string> {
    if (paymentId.startsWith('pi_')) return paymentId;
    let invoiceId: string | undefined;
    if (paymentId.startsWith('in_')) {
      invoiceId = paymentId;
    } else if (paymentId.startsWith('sub_')) {
      const invoices = await this.stripe.invoices.list({ subscription: paymentId, limit: 100 });
      invoiceId = invoices.data.find((candidate) => candidate.billing_reason === 'subscription_create')?.id;
    }
    // The payment intent that paid the invoice, from the invoice's payments.
    const payments = invoiceId ? await orNull(this.stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid', limit: 10 })) : null;
    const paid = payments?.data.find((payment) => payment.is_default) ?? payments?.data[0];
    const paymentIntent = idOf(paid?.payment.payment_intent);
    if (!paymentIntent) throw new PaymentRefusedError('Stripe has no charge for this payment to refund.');
    return paymentIntent;
  }

  async openBillingPortal(customerId: string, returnUrl: string): Promise<BillingPortalSession> {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: customerId,
      return_url: returnUrl,
      ...(this.portalConfiguration && { configuration: this.portalConfiguration }),
    });
    return { url: session.url };
  }

  /** Stripe deletes the customer's saved cards with it and cancels its subscriptions at once. */
  async forgetCustomer(customerId: string): Promise<ForgottenCustomer> {
    try {
      await this.stripe.customers.del(customerId);
      return 'deleted';
    } catch (err) {
      // Stripe answers a customer it no longer has (deleted on an earlier attempt) with 404 resource_missing.
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing') return 'already deleted';
      throw err;
    }
  }

  /** Stripe's events are stamped in real time (this system uses no test clocks). */
  now(): Promise<Date> {
    return Promise.resolve(new Date());
  }

  /**
   * The customer this system created for the buyer's normalised e-mail on an earlier order, else
   * a new one. A customer found by searching Stripe is never adopted: the address typed at
   * checkout proves nothing about who owns that customer and its saved cards.
   */
  private async customerFor(order: GatewayOrder): Promise<string> {
    if (order.customerId) return order.customerId;
    const customer = await this.stripe.customers.create(
      { email: order.email, name: order.name, metadata: { order_id: order.id } },
      { idempotencyKey: idempotencyKey(order.id, 'create-customer') },
    );
    return customer.id;
  }
}

/** States in which the first invoice's payment waits for a confirmation we can make. */
const CONFIRMABLE: ReadonlySet<string> = new Set(['requires_confirmation', 'requires_payment_method', 'requires_action']);

/** The payment intent of the first invoice (expanded with its `payments`), the one that pays it by default. */
function firstPaymentIdOf(subscription: Stripe.Subscription): string | null {
  const invoice = subscription.latest_invoice;
  if (!invoice || typeof invoice === 'string') return null;
  const payments = invoice.payments?.data ?? [];
  const payment = payments.find((candidate) => candidate.is_default) ?? payments[0];
  return idOf(payment?.payment.payment_intent);
}

/** The subscription an invoice bills (null for an invoice of no subscription). */
function subscriptionIdOf(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription);
}

/** Billing periods are kept per subscription item: the subscription's period ends with its last item's. */
function termsOf(subscription: Pick<Stripe.Subscription, 'cancel_at_period_end' | 'items'>): SubscriptionTerms {
  const ends = (subscription.items?.data ?? []).map((item) => item.current_period_end).filter((end) => typeof end === 'number');
  return {
    cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
    currentPeriodEnd: ends.length > 0 ? new Date(Math.max(...ends) * 1000) : null,
  };
}

function requireSecret(secret: string | null): string {
  if (!secret) throw new Error('Stripe returned an intent without a client secret');
  return secret;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** A retrieve that answers null for Stripe's 404 (resource_missing). */
async function orNull<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (err) {
    if ((err as { code?: string }).code === 'resource_missing') return null;
    throw err;
  }
}
