import type { DisputeOutcome, PaymentProviderName, RefundState } from '@contracts/payments';
import type { PaymentKind, Plan } from '@contracts/plans';
import { isUuid } from '@contracts/ids';

/** Injection token of the configured gateway (the adapter payment-gateway.module.ts registers for PAYMENT_PROVIDER). */
export const PAYMENT_GATEWAY = Symbol('PaymentGateway');

/** What a gateway needs to know about our order. */
export interface GatewayOrder {
  id: string;
  plan: Plan;
  amountCents: number;
  /** Lower case ISO code. */
  currency: string;
  email: string;
  emailNormalized: string;
  name: string;
  /**
   * The buyer's customer at the provider: the order's own, or an earlier order's, which the order
   * took when it was created. Null: the gateway creates one.
   */
  customerId: string | null;
  /** The coupon the order is charged with: `amountCents` is then the discounted first charge. */
  discount?: GatewayDiscount | null;
  /**
   * The add-on the buyer ticked (the order bump), charged once with the first payment on top of
   * `amountCents` (which stays the plan's own charge, a subscription's recurring amount): one
   * charge of both for a one-time plan, a line on a subscription's first invoice.
   */
  bump?: GatewayBump | null;
}

/** An order bump as the gateway charges it: a catalogue plan charged once. */
export interface GatewayBump {
  planId: string;
  name: string;
  amountCents: number;
}

/** What a one-time order's charge (or a subscription's first invoice) takes: the plan's charge and the add-on's. */
export const firstChargeCents = (order: Pick<GatewayOrder, 'amountCents' | 'bump'>): number => order.amountCents + (order.bump?.amountCents ?? 0);

/** A coupon of ours as a gateway applies it (Stripe: a coupon and promotion code made from it). */
export interface GatewayDiscount {
  couponId: string;
  code: string;
  percentOff: number | null;
  amountOffCents: number | null;
  /** A subscription's discounted months, the first included; null: every month. */
  durationMonths: number | null;
  /** The plan's full price: a subscription's price, charged again after the discounted months. */
  fullAmountCents: number;
}

/** The save offer's coupon, taken off a subscription's next renewal once (Stripe: a coupon of duration once). */
export type RenewalDiscount = Pick<GatewayDiscount, 'couponId' | 'code' | 'percentOff' | 'amountOffCents'>;

/** The provider objects an order can hold: a one-time charge, a card setup (saved card) and a subscription. */
export type PaymentObjectKind = 'charge' | 'setup' | 'subscription';

/** A charge or card setup the browser goes on to confirm with its client secret. */
export interface CreatedIntent {
  /** The provider's id of the charge or card setup. */
  intentId: string;
  clientSecret: string;
  customerId: string;
}

/**
 * Where a one-time charge or a card setup stands. `pending`: nothing the order should learn yet
 * (no card confirmed, or a state the adapter does not recognise).
 */
export type PaymentState = 'pending' | 'requires_action' | 'processing' | 'succeeded' | 'failed' | 'canceled';

/**
 * Where a subscription stands; `pending` as for charges. `past_due`: a charge failed and is being
 * retried (access kept for a grace period); `unpaid`: the provider stopped retrying and keeps the
 * subscription unpaid (access ended until a payment makes it active again).
 */
export type SubscriptionState = 'pending' | 'incomplete' | 'active' | 'past_due' | 'unpaid' | 'paused' | 'canceled';

export interface CreatedSubscription {
  subscriptionId: string;
  state: SubscriptionState;
  customerId: string;
  paymentMethodId: string;
  /**
   * The client secret of the first payment when the bank asks the buyer to authenticate it (3-D
   * Secure): the subscription stays incomplete until the browser completes that action.
   */
  actionClientSecret: string | null;
}

/**
 * A refund of one payment of an order, as the admin asked for it. The payment is named by the id
 * our `payments` table holds it under (`provider_payment_id`): a one-time charge, a
 * subscription's first payment (the subscription's id) or a later invoice; the adapter resolves
 * it to the provider's charge.
 */
export interface RefundRequest {
  orderId: string;
  /** `payments.provider_payment_id` of the payment to refund. */
  paymentId: string;
  /** Cents; the whole payment when omitted. */
  amountCents?: number;
  /** The admin request's key (refunds.request_key): the provider's idempotency key is derived from it, and the refund carries it back. */
  requestKey: string;
}

/** A refund as the provider holds it now (made by us or in the provider's dashboard). */
export interface Refund {
  refundId: string;
  state: RefundState;
  amountCents: number;
  /** Lower case ISO code. */
  currency: string;
  /**
   * The ids our `payments` table may hold the refunded payment under, most specific first: its
   * invoice, its charge, and its subscription when it is the subscription's first payment.
   */
  paymentIds: string[];
  /** The admin request's key the refund was made for; null for one made in the provider's dashboard. */
  requestKey: string | null;
}

export interface Dispute {
  disputeId: string;
  outcome: DisputeOutcome;
  amountCents: number;
  /** Lower case ISO code. */
  currency: string;
  /** As for Refund.paymentIds. */
  paymentIds: string[];
}

/** The provider's idempotency key of an admin refund request: a double click or a retried request refunds once. */
export const refundIdempotencyKey = (requestKey: string): string => `refund:${requestKey}`;

/**
 * One invoice of a subscription as the provider says it is now: whether it was paid, for how
 * much, and whether it is the subscription's first (paid at checkout, as the order itself).
 */
export interface SubscriptionInvoice {
  invoiceId: string;
  subscriptionId: string;
  paid: boolean;
  /**
   * The subscription's first invoice (Stripe's billing_reason subscription_create). For a
   * membership that is the order's own first payment; for the subscription an instalment
   * schedule starts, it is already the second instalment.
   */
  first: boolean;
  /** What it charged; for an unpaid one, what it asks. */
  amountCents: number;
  /** Lower case ISO code. */
  currency: string;
  paidAt: Date | null;
}

/** An instalment plan's charges after its first, to be made monthly on the first charge's card. */
export interface InstalmentRequest {
  order: GatewayOrder;
  /** The provider's id of the first charge, paid at checkout: its card pays the others. */
  chargeId: string;
  /** How many charges follow the first. */
  count: number;
  /** When the first was paid: the others fall due one, two… calendar months after it. */
  firstPaidAt: Date;
}

export interface ScheduledInstalments {
  /** The provider's id of the schedule (Stripe: `sub_sched_…`; the sandbox: its subscription's). */
  scheduleId: string;
  /** The subscription that makes the charges, when it exists already (Stripe creates it when the first falls due). */
  subscriptionId: string | null;
}

/** An instalment plan's later charges as its order holds them at the provider, to be stopped. */
export interface InstalmentPlanRef {
  orderId: string;
  /** The schedule (`orders.instalment_schedule_id`); null for a plan scheduled before the id was kept. */
  scheduleId: string | null;
  /** The subscription making the charges, once it exists (`orders.subscription_id`). */
  subscriptionId: string | null;
}

/** An order whose first payment is looked for at the provider by the order id its objects carry. */
export interface FirstPaymentQuery {
  orderId: string;
  /** A one-time order (instalment plans included) was paid by a charge; a subscription order by its subscription's first invoice. */
  kind: PaymentKind;
}

/**
 * The provider object that took an order's first payment, as the order holds it: its paid
 * charge (`payment_intent_id`), or its subscription whose first invoice was paid (`subscription_id`),
 * the id its first payment is recorded under.
 */
export interface FoundFirstPayment {
  object: 'charge' | 'subscription';
  id: string;
}

/** What stopping a plan did: canceled its charges now, or found them canceled or ended already. */
export type StoppedInstalments = 'stopped' | 'already ended';

/**
 * How a subscription ends: at the end of its current period (cancel at period end, asked by the
 * buyer and revocable until then), and when that period ends.
 */
export interface SubscriptionTerms {
  cancelAtPeriodEnd: boolean;
  /** Null when the provider gives none (a subscription not started). */
  currentPeriodEnd: Date | null;
  /** When the billing cycle started: each renewal falls on its day of the month. Read only by `readSubscriptionTerms`. */
  billingCycleAnchor?: Date | null;
}

/** A card setup for an existing customer, confirmed in the browser with its client secret. */
export interface CreatedCardUpdate {
  setupId: string;
  clientSecret: string;
}

/** The card an earlier order saved for later use (one-click purchases), as the buyer is shown it. */
export interface SavedCard {
  paymentMethodId: string;
  customerId: string;
  last4: string;
}

/** The order's objects a saved card is found through. */
export type SavedCardSource = Pick<GatewayOrder, 'id' | 'customerId'> & {
  chargeId: string | null;
  subscriptionId: string | null;
  paymentMethodId: string | null;
};

/** What charging a saved card with the buyer on the page led to. */
export interface SavedCardCharge {
  /** The provider's id of the charge: the order's payment_intent_id, verified on /success. */
  intentId: string;
  state: PaymentState;
  /** The client secret, when the bank asks the buyer to authenticate (state requires_action). */
  clientSecret: string | null;
  /** The bank's reason of a decline, in words the buyer can act on. */
  declineMessage: string | null;
}

/** A provider-hosted page where a customer manages their saved card and subscription. */
export interface BillingPortalSession {
  url: string;
}

/** What became of a customer the provider was asked to forget: deleted now, or already gone before. */
export type ForgottenCustomer = 'deleted' | 'already deleted';

/**
 * What a provider event says happened. The worker does not trust it for the outcome (it re-reads
 * the object, so late or replayed events cannot move an order backwards); it names the object.
 */
export type PaymentEventKind =
  | 'charge.created'
  | 'charge.requires_action'
  | 'charge.processing'
  | 'charge.succeeded'
  | 'charge.failed'
  | 'charge.canceled'
  | 'charge.updated'
  | 'setup.created'
  | 'setup.requires_action'
  | 'setup.succeeded'
  | 'setup.failed'
  | 'setup.canceled'
  | 'setup.updated'
  | 'subscription.created'
  | 'subscription.updated'
  | 'subscription.canceled'
  | 'subscription.paid'
  | 'subscription.payment_failed'
  /** A payment was refunded (in whole or part): its refunds are re-read (after.object 'payment'). */
  | 'payment.refunded'
  | 'refund.created'
  | 'refund.updated'
  | 'dispute.created'
  | 'dispute.updated'
  | 'dispute.closed';

/**
 * Why a charge or card setup was declined, as funnel_payments_total labels it: the card networks'
 * common reasons (in the words Stripe's decline codes give them), and 'other' for any other or
 * none given, so labels stay few. Each adapter translates its provider's reason into one of these.
 */
export const DECLINE_REASONS = [
  'generic_decline',
  'insufficient_funds',
  'lost_card',
  'stolen_card',
  'expired_card',
  'incorrect_cvc',
  'processing_error',
  'authentication_required',
  'card_declined',
  'payment_intent_authentication_failure',
  'fraudulent',
  'do_not_honor',
  'other',
] as const;

export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** Event kinds that report a payment declined: a charge's, a card setup's, or a subscription invoice's. */
export const DECLINED_KINDS: ReadonlySet<PaymentEventKind> = new Set(['charge.failed', 'setup.failed', 'subscription.payment_failed']);

/** The declines that name their charge or card setup, whose reason the provider gives with them. */
export const INTENT_DECLINED_KINDS: ReadonlySet<PaymentEventKind> = new Set(['charge.failed', 'setup.failed']);

/** The refund, dispute or refunded payment a refund or dispute event names, re-read by the worker. */
export interface AfterPaymentSubject {
  object: 'refund' | 'payment' | 'dispute';
  id: string;
}

/** A provider event about an object an order holds, in neutral terms. */
export interface PaymentEvent {
  kind: PaymentEventKind;
  providerEventId: string;
  object: PaymentObjectKind;
  /** The provider's id of the charge, card setup or subscription. */
  objectId: string;
  /** Our order id as the object carries it (see orderRefOf); undefined when absent or malformed. */
  orderRef: string | undefined;
  occurredAt: Date | null;
  /** The provider's id of the subscription invoice the event reports (subscription.paid / payment_failed), read with readInvoice. */
  invoiceId?: string;
  /**
   * Refund and dispute events (payment.refunded, refund.*, dispute.*): the object to re-read.
   * Their `object`/`objectId` name the charge they are about when the event carries it.
   */
  after?: AfterPaymentSubject;
  /**
   * Events of INTENT_DECLINED_KINDS: why the payment was declined ('other' when the provider does
   * not say). A failed invoice names none: counted as 'other'.
   */
  declineReason?: DeclineReason;
}

/** A verified webhook event exactly as the provider sent it; stored whole in payment_events under its id and type. */
export interface WebhookRecord {
  id: string;
  type: string;
  [field: string]: unknown;
}

export interface ParsedWebhook {
  record: WebhookRecord;
  /** Null for an event about nothing an order holds (it is stored all the same). */
  event: PaymentEvent | null;
  /**
   * The provider API version the event was written in when it is not the one this adapter is
   * pinned to (the endpoint wants moving; the event is read all the same), else null.
   */
  otherApiVersion: string | null;
}

/**
 * The payment provider as the business sees it; each provider is an adapter under providers/.
 * Every write carries an idempotency key derived from our order id, so a double click or a
 * retried request never creates a second charge.
 */
export interface PaymentGateway {
  readonly provider: PaymentProviderName;
  /**
   * Whether payments move real money. False for the sandbox and for Stripe's test mode: their
   * orders are test orders, kept out of sales, ad platforms and revenue.
   */
  readonly livemode: boolean;
  /** The key the browser's card form loads the provider with; null when it needs none. */
  readonly publishableKey: string | null;

  createCharge(order: GatewayOrder): Promise<CreatedIntent>;
  /** Saves a card for the subscription that createSubscription starts once the browser has confirmed it. */
  createCardSetup(order: GatewayOrder): Promise<CreatedIntent>;
  /**
   * Checks the card setup succeeded for this order and subscribes with its card, paying the first
   * period at once. Idempotent per order: asked again, it answers with the same subscription (and
   * the same pending authentication, if the first payment still waits for one).
   */
  createSubscription(order: GatewayOrder, setupId: string): Promise<CreatedSubscription>;

  readCharge(id: string): Promise<PaymentState>;
  /** Read by the worker for card setup events of a subscription order still waiting for its card. */
  readCardSetup(id: string): Promise<PaymentState>;
  readSubscription(id: string): Promise<SubscriptionState>;
  /** An invoice of a subscription (renewal or instalment); null when the provider has none of this id. */
  readInvoice(id: string): Promise<SubscriptionInvoice | null>;

  /** The card an earlier order saved (still attached to its customer), or null when it has none. */
  savedCardOf(source: SavedCardSource): Promise<SavedCard | null>;
  /**
   * Charges the order's amount on a saved card with the buyer on the page (not off-session: the
   * bank may ask for authentication, which the browser completes). Idempotent per order: asked
   * again, it answers with the same charge.
   */
  chargeSavedCard(order: GatewayOrder, card: SavedCard): Promise<SavedCardCharge>;

  /**
   * Schedules an instalment plan's later charges on the card of its first: one a month, `count`
   * times, then nothing more. Idempotent per order, for ever: a schedule already made for the
   * order (its answer lost, and asked again after the provider forgot the idempotency key) is
   * found by the order id it carries and answered, never made twice.
   */
  scheduleInstalments(request: InstalmentRequest): Promise<ScheduledInstalments>;
  /**
   * Stops an instalment plan's later charges at once: its schedule canceled, with the
   * subscription the schedule started, if any. Asked again, or for a plan that ended, it answers
   * 'already ended'.
   */
  stopInstalments(plan: InstalmentPlanRef, idempotencyKey: string): Promise<StoppedInstalments>;

  /**
   * The object that took the order's first payment, found by the order id its metadata carries
   * (not by an id the order holds: used for payments recorded before the order stored one); null
   * when the provider has no paid one for the order.
   */
  firstPaymentOf(query: FirstPaymentQuery): Promise<FoundFirstPayment | null>;

  /**
   * Whether a subscription left an invoice unpaid (open, or given up after its retries): how an
   * instalment schedule that stopped is told from one that ended after its last charge.
   */
  hasUnpaidInvoices(subscriptionId: string): Promise<boolean>;

  /** Whether a subscription ends at its period's end, and when that period ends (read by the worker on subscription updates). */
  readSubscriptionTerms(id: string): Promise<SubscriptionTerms>;
  /**
   * Sets or clears the subscription's cancellation at the end of its current period (the buyer's
   * 'Cancel membership' and 'Resume membership'). `requestId` makes the idempotency key: a retried
   * request repeats the same change, a later change is a new one.
   */
  setCancelAtPeriodEnd(orderId: string, subscriptionId: string, cancel: boolean, requestId: string): Promise<SubscriptionTerms>;

  /**
   * Pauses the subscription's charges until `resumesAt` (the cancellation flow's pause): renewals
   * falling due before then are not charged (Stripe: `pause_collection` with behavior void), and
   * charging resumes by itself. `requestId` makes the idempotency key.
   */
  pauseCollection(orderId: string, subscriptionId: string, resumesAt: Date, requestId: string): Promise<void>;
  /**
   * Takes the coupon off the subscription's next charged renewal only (the cancellation flow's
   * save offer); the renewals after it are at the full price. `requestId` makes the idempotency key.
   */
  discountNextRenewal(orderId: string, subscriptionId: string, discount: RenewalDiscount, requestId: string): Promise<void>;

  /** A card setup for the customer of a subscription order, for the buyer's 'Update card' (confirmed in the browser). */
  createCardUpdate(orderId: string, customerId: string, requestId: string): Promise<CreatedCardUpdate>;
  /** Makes the card of a confirmed card setup of this order the subscription's default payment method. */
  applyCardUpdate(orderId: string, subscriptionId: string, setupId: string): Promise<void>;

  /**
   * Refunds one payment, whole or in part, under an idempotency key derived from the request's
   * key: asked again with the same key, it answers with the same refund. A refusal the admin can
   * act on (more than is left, not paid) is a PaymentRefusedError.
   */
  refund(request: RefundRequest): Promise<Refund>;
  /** A refund as the provider holds it now; null when it has none of this id. */
  readRefund(id: string): Promise<Refund | null>;
  /** Every refund of a refunded payment (the object of a payment.refunded event). */
  refundsOfPayment(id: string): Promise<Refund[]>;
  /** A dispute as the provider holds it now; null when it has none of this id. */
  readDispute(id: string): Promise<Dispute | null>;
  /**
   * Cancels a subscription at once (not at the period's end): its access ends now. Canceling one
   * already canceled answers 'canceled'.
   */
  cancelSubscriptionNow(subscriptionId: string, idempotencyKey: string): Promise<SubscriptionState>;
  /** Opens the customer's billing portal, which links back to `returnUrl`. */
  openBillingPortal(customerId: string, returnUrl: string): Promise<BillingPortalSession>;

  /**
   * Deletes a customer this system created (an erased person's) with what the provider holds on
   * it: name, e-mail and saved cards; a subscription still running on it ends, as the provider
   * ends it. No idempotency key: deleting twice is harmless, the second answer is 'already deleted'.
   */
  forgetCustomer(customerId: string): Promise<ForgottenCustomer>;

  /** Which object a provider id names; null for an id of no such shape (never sent to a lookup). */
  kindOfId(id: string): PaymentObjectKind | null;

  /**
   * The provider's time now, the time its events are stamped in (`PaymentEvent.occurredAt`): the
   * real clock for Stripe, the sandbox's own clock (moved by POST /api/sandbox/clock) for it. A
   * past-due order's grace is counted in it.
   */
  now(): Promise<Date>;

  /** The request header that carries the webhook signature, lower case. */
  readonly webhookSignatureHeader: string;
  /** Checks a webhook's signature over its exact bytes and reads it; throws WebhookRefusedError. */
  parseWebhook(rawBody: Buffer | undefined, signature: string | string[] | undefined): ParsedWebhook;
  /** The meaning of a stored webhook record: the worker applies events from the store, not from the request. */
  eventOf(record: WebhookRecord): PaymentEvent | null;
}

/**
 * A refusal the buyer or admin can act on (card not confirmed, intent of another order, more than
 * is left to refund): answered 400 or 409 with its message (common/provider-answers.ts).
 */
export class PaymentRefusedError extends Error {}

/** Something this provider does not offer (the sandbox has no billing portal); answered as a refusal. */
export class PaymentUnsupportedError extends Error {}

/** A provider object the request names that does not exist (the sandbox's intent of a client secret, a dispute); answered 404. */
export class PaymentNotFoundError extends Error {}

/** A webhook refused before it is stored (signature, age, shape); its message becomes the 400's. */
export class WebhookRefusedError extends Error {}

/** Our order id as an adapter reads it back from a provider object: only a well-formed id ever reaches a query. */
export function orderRefOf(value: unknown): string | undefined {
  return isUuid(value) ? value : undefined;
}

/** Idempotency key of one write for one order: the same order always sends the same key. */
export const idempotencyKey = (orderId: string, operation: string): string => `order:${orderId}:${operation}`;
