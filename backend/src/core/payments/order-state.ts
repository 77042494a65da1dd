import type { PaymentKind } from '@contracts/plans';

/**
 * An order's life cycle, one table per payment kind. One-time payments follow Stripe's payment
 * intent: created → requires_action → processing → succeeded / failed / canceled. Subscriptions
 * start with their setup intent (created, requires_action, failed) and then follow the
 * subscription: incomplete → active / past_due / canceled.
 *
 * `failed` is not final: the buyer may retry the same intent with another card. `succeeded` and
 * `canceled` are final. Everything else would move an order backwards, which a late or
 * duplicated webhook must never do, so `advance` refuses it.
 */
export const ORDER_STATUSES = [
  'created',
  'requires_action',
  'processing',
  'succeeded',
  'failed',
  'canceled',
  'incomplete',
  'active',
  'past_due',
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

type Transitions = Readonly<Partial<Record<OrderStatus, readonly OrderStatus[]>>>;

const ONE_TIME: Transitions = {
  created: ['requires_action', 'processing', 'succeeded', 'failed', 'canceled'],
  requires_action: ['processing', 'succeeded', 'failed', 'canceled'],
  processing: ['succeeded', 'failed', 'canceled'],
  failed: ['requires_action', 'processing', 'succeeded', 'canceled'],
  succeeded: [],
  canceled: [],
};

const SUBSCRIPTION: Transitions = {
  created: ['requires_action', 'failed', 'incomplete', 'active', 'past_due', 'canceled'],
  requires_action: ['failed', 'incomplete', 'active', 'past_due', 'canceled'],
  failed: ['requires_action', 'incomplete', 'active', 'past_due', 'canceled'],
  incomplete: ['active', 'past_due', 'canceled'],
  active: ['past_due', 'canceled'],
  past_due: ['active', 'canceled'],
  canceled: [],
};

const TABLES: Readonly<Record<PaymentKind, Transitions>> = { 'one-time': ONE_TIME, subscription: SUBSCRIPTION };

export function canTransition(kind: PaymentKind, from: OrderStatus, to: OrderStatus): boolean {
  return TABLES[kind][from]?.includes(to) ?? false;
}

/** The status after learning `to`: `to` when the table allows it, otherwise `from` unchanged. */
export function advance(kind: PaymentKind, from: OrderStatus, to: OrderStatus): OrderStatus {
  return canTransition(kind, from, to) ? to : from;
}

/** Statuses in which the buyer has paid: the success page's 'succeeded or active'. */
export function isPaid(status: OrderStatus): boolean {
  return status === 'succeeded' || status === 'active';
}

/** Statuses no provider read can change any more (verification stops refreshing them). */
export function isSettled(kind: PaymentKind, status: OrderStatus): boolean {
  return status === 'succeeded' || status === 'canceled' || (kind === 'subscription' && status === 'active');
}

/** Stripe's payment intent status → order status (unknown words change nothing). */
export function fromPaymentIntentStatus(status: string, hasError: boolean): OrderStatus | null {
  switch (status) {
    case 'succeeded':
      return 'succeeded';
    case 'processing':
    case 'requires_capture':
      return 'processing';
    case 'requires_action':
    case 'requires_confirmation':
      return 'requires_action';
    case 'canceled':
      return 'canceled';
    case 'requires_payment_method':
      return hasError ? 'failed' : null;
    default:
      return null;
  }
}

/** Stripe's setup intent status → order status while a subscription order waits for its card. */
export function fromSetupIntentStatus(status: string, hasError: boolean): OrderStatus | null {
  if (status === 'requires_action' || status === 'requires_confirmation') return 'requires_action';
  if (status === 'canceled') return 'canceled';
  if (status === 'requires_payment_method' && hasError) return 'failed';
  return null;
}

/** Stripe's subscription status → order status. */
export function fromSubscriptionStatus(status: string): OrderStatus | null {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'incomplete':
      return 'incomplete';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return null;
  }
}

/**
 * The status word the verification endpoints answer with, in Stripe's vocabulary (the success
 * page compares it with 'succeeded' and 'active' and shows any other word).
 */
export function verificationStatus(kind: PaymentKind, status: OrderStatus): string {
  if (status === 'created' || status === 'failed') return kind === 'subscription' ? 'incomplete' : 'requires_payment_method';
  if (kind === 'subscription' && status === 'requires_action') return 'incomplete';
  return status;
}
