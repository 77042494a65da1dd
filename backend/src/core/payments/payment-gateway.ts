import type { PaymentProviderName } from '@contracts/payments';
import type { Plan } from '@contracts/plans';

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
  customerId: string | null;
}

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

/** Where a subscription stands; `pending` as for charges. */
export type SubscriptionState = 'pending' | 'incomplete' | 'active' | 'past_due' | 'paused' | 'canceled';

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

export interface RefundRequest {
  orderId: string;
  /** The provider's id of the charge to refund. */
  chargeId: string;
  /** Cents; the whole charge when omitted. */
  amountCents?: number;
}

export type RefundState = 'pending' | 'succeeded' | 'failed' | 'canceled';

export interface Refund {
  refundId: string;
  state: RefundState;
  amountCents: number;
}

/**
 * One invoice of a subscription as the provider says it is now: whether it was paid, for how
 * much, and whether it is the subscription's first (paid at checkout, as the order itself).
 */
export interface SubscriptionInvoice {
  invoiceId: string;
  subscriptionId: string;
  paid: boolean;
  /** The subscription's first invoice: the order's own first payment, not a renewal. */
  first: boolean;
  amountCents: number;
  /** Lower case ISO code. */
  currency: string;
  paidAt: Date | null;
}

/**
 * How a subscription ends: at the end of its current period (cancel at period end, asked by the
 * buyer and revocable until then), and when that period ends.
 */
export interface SubscriptionTerms {
  cancelAtPeriodEnd: boolean;
  /** Null when the provider gives none (a subscription not started). */
  currentPeriodEnd: Date | null;
}

/** A card setup for an existing customer, confirmed in the browser with its client secret. */
export interface CreatedCardUpdate {
  setupId: string;
  clientSecret: string;
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
  | 'subscription.payment_failed';

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

  /** Whether a subscription ends at its period's end, and when that period ends (read by the worker on subscription updates). */
  readSubscriptionTerms(id: string): Promise<SubscriptionTerms>;
  /**
   * Sets or clears the subscription's cancellation at the end of its current period (the buyer's
   * 'Cancel membership' and 'Resume membership'). `requestId` makes the idempotency key: a retried
   * request repeats the same change, a later change is a new one.
   */
  setCancelAtPeriodEnd(orderId: string, subscriptionId: string, cancel: boolean, requestId: string): Promise<SubscriptionTerms>;

  /** A card setup for the customer of a subscription order, for the buyer's 'Update card' (confirmed in the browser). */
  createCardUpdate(orderId: string, customerId: string, requestId: string): Promise<CreatedCardUpdate>;
  /** Makes the card of a confirmed card setup of this order the subscription's default payment method. */
  applyCardUpdate(orderId: string, subscriptionId: string, setupId: string): Promise<void>;

  /** Refunds a charge, whole or in part; one refund per order, so a retry answers with the first. */
  refund(request: RefundRequest): Promise<Refund>;
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

  /** The request header that carries the webhook signature, lower case. */
  readonly webhookSignatureHeader: string;
  /** Checks a webhook's signature over its exact bytes and reads it; throws WebhookRefusedError. */
  parseWebhook(rawBody: Buffer | undefined, signature: string | string[] | undefined): ParsedWebhook;
  /** The meaning of a stored webhook record: the worker applies events from the store, not from the request. */
  eventOf(record: WebhookRecord): PaymentEvent | null;
}

/** A refusal the buyer can act on (card not confirmed, intent of another order); becomes a 400. */
export class PaymentRefusedError extends Error {}

/** Something this provider does not offer (the sandbox has no billing portal). */
export class PaymentUnsupportedError extends Error {}

/** A webhook refused before it is stored (signature, age, shape); its message becomes the 400's. */
export class WebhookRefusedError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Our order id as an adapter reads it back from a provider object: only a well-formed id ever reaches a query. */
export function orderRefOf(value: unknown): string | undefined {
  return typeof value === 'string' && UUID.test(value) ? value : undefined;
}

/** Idempotency key of one write for one order: the same order always sends the same key. */
export const idempotencyKey = (orderId: string, operation: string): string => `order:${orderId}:${operation}`;
