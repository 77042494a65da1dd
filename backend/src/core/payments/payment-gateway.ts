import type { PaymentProviderName } from '@contracts/payments';
import type { Plan } from '@contracts/plans';

/** Injection token of the configured gateway (Stripe, or the sandbox without Stripe keys). */
export const PAYMENT_GATEWAY = Symbol('PaymentGateway');

/** Pinned: webhooks and responses keep this shape until we deliberately move. */
export const STRIPE_API_VERSION = '2025-02-24.acacia' as const;

/** What a gateway needs to know about our order. */
export interface GatewayOrder {
  id: string;
  plan: Plan;
  amountCents: number;
  /** Lower case ISO code, as Stripe writes it. */
  currency: string;
  email: string;
  emailNormalized: string;
  name: string;
  customerId: string | null;
}

export interface CreatedIntent {
  intentId: string;
  clientSecret: string;
  customerId: string;
}

export interface CreatedSubscription {
  subscriptionId: string;
  /** Stripe's subscription status word. */
  status: string;
  customerId: string;
  paymentMethodId: string;
}

/** A provider read of an intent or subscription: Stripe's status word and whether it carries an error. */
export interface ProviderState {
  status: string;
  hasError: boolean;
}

/**
 * The payment provider as checkout sees it. Every write carries an idempotency key derived from
 * our order id, so a double click or a retried request never creates a second charge.
 */
export interface PaymentGateway {
  readonly provider: PaymentProviderName;
  createSetupIntent(order: GatewayOrder): Promise<CreatedIntent>;
  createPaymentIntent(order: GatewayOrder): Promise<CreatedIntent>;
  /** Checks the setup intent succeeded for this order, makes its card the default and subscribes. */
  createSubscription(order: GatewayOrder, setupIntentId: string): Promise<CreatedSubscription>;
  retrievePaymentIntent(id: string): Promise<ProviderState>;
  /** Read by the worker for setup_intent.* events of a subscription order still waiting for its card. */
  retrieveSetupIntent(id: string): Promise<ProviderState>;
  retrieveSubscription(id: string): Promise<ProviderState>;
}

/** A refusal the buyer can act on (card not confirmed, intent of another order); becomes a 400. */
export class PaymentRefusedError extends Error {}

/** Idempotency key of one write for one order: the same order always sends the same key. */
export const idempotencyKey = (orderId: string, operation: string): string => `order:${orderId}:${operation}`;

/** Stripe Price lookup key of a subscription plan, e.g. clear-standard-monthly. */
export const priceLookupKey = (plan: Plan): string => `clear-${plan.id}-monthly`;
