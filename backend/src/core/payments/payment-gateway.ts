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
}

/**
 * The payment provider as the business sees it; each provider is an adapter under providers/.
 * Every write carries an idempotency key derived from our order id, so a double click or a
 * retried request never creates a second charge.
 */
export interface PaymentGateway {
  readonly provider: PaymentProviderName;
  /** The key the browser's card form loads the provider with; null when it needs none. */
  readonly publishableKey: string | null;

  createCharge(order: GatewayOrder): Promise<CreatedIntent>;
  /** Saves a card for the subscription that createSubscription starts once the browser has confirmed it. */
  createCardSetup(order: GatewayOrder): Promise<CreatedIntent>;
  /** Checks the card setup succeeded for this order, makes its card the default and subscribes. */
  createSubscription(order: GatewayOrder, setupId: string): Promise<CreatedSubscription>;

  readCharge(id: string): Promise<PaymentState>;
  /** Read by the worker for card setup events of a subscription order still waiting for its card. */
  readCardSetup(id: string): Promise<PaymentState>;
  readSubscription(id: string): Promise<SubscriptionState>;

  /** Which object a provider id names; null for an id of no such shape (never sent to a lookup). */
  kindOfId(id: string): PaymentObjectKind | null;
}

/** A refusal the buyer can act on (card not confirmed, intent of another order); becomes a 400. */
export class PaymentRefusedError extends Error {}

/** Idempotency key of one write for one order: the same order always sends the same key. */
export const idempotencyKey = (orderId: string, operation: string): string => `order:${orderId}:${operation}`;
