import type { PaymentKind } from '@contracts/plans';
import type { OrderStatus } from '../database/repositories/order-rows';
import type { PaymentState, SubscriptionState } from '../payments/payment-gateway';

// The statuses are the orders row's, since the repositories never import this folder; the
// lifecycle's readers take them from here with its rules.
export type { OrderStatus };

/**
 * An order's life cycle, one table per payment kind, in the gateway's neutral words. One-time
 * payments follow their charge: created → requires_action → processing → succeeded / failed /
 * canceled. Subscriptions start with their card setup (created, requires_action, failed) and then
 * follow the subscription: incomplete → active / past_due / unpaid / canceled. `past_due` keeps
 * access for a grace period while the provider retries the charge; `unpaid` (the provider stopped
 * retrying and keeps the subscription unpaid) ends it; a later payment makes either active again,
 * and nothing brings an unpaid order back to past due, where it would regain access.
 *
 * `failed` is not final: the buyer may retry the same intent with another card. `succeeded` and
 * `canceled` are final. Everything else would move an order backwards, which a late or
 * duplicated webhook must never do, so `advance` refuses it.
 */
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
  created: ['requires_action', 'failed', 'incomplete', 'active', 'past_due', 'unpaid', 'canceled'],
  requires_action: ['failed', 'incomplete', 'active', 'past_due', 'unpaid', 'canceled'],
  failed: ['requires_action', 'incomplete', 'active', 'past_due', 'unpaid', 'canceled'],
  incomplete: ['active', 'past_due', 'unpaid', 'canceled'],
  active: ['past_due', 'unpaid', 'canceled'],
  past_due: ['active', 'unpaid', 'canceled'],
  unpaid: ['active', 'canceled'],
  canceled: [],
};

const TABLES: Readonly<Record<PaymentKind, Transitions>> = { 'one-time': ONE_TIME, subscription: SUBSCRIPTION };

export function canTransition(kind: PaymentKind, from: OrderStatus, to: OrderStatus): boolean {
  return TABLES[kind][from]?.includes(to) ?? false;
}

/** A status of the kind's life cycle the order cannot leave, whatever the provider says (a one-time charge succeeded or canceled, a subscription canceled). */
export function isFinal(kind: PaymentKind, status: OrderStatus): boolean {
  return TABLES[kind][status]?.length === 0;
}

/** The status after learning `to`: `to` when the table allows it, otherwise `from` unchanged. */
export function advance(kind: PaymentKind, from: OrderStatus, to: OrderStatus): OrderStatus {
  return canTransition(kind, from, to) ? to : from;
}

/** Statuses in which the buyer has paid: the success page's 'succeeded or active'. */
export function isPaid(status: OrderStatus): boolean {
  return status === 'succeeded' || status === 'active';
}

/**
 * Statuses no provider read can change any more, per kind: verification stops refreshing them and
 * the reconciler stops re-reading them (its query takes this table as parameters).
 */
export const SETTLED_STATUSES: Readonly<Record<PaymentKind, readonly OrderStatus[]>> = {
  'one-time': ['succeeded', 'canceled'],
  subscription: ['succeeded', 'canceled', 'active'],
};

export function isSettled(kind: PaymentKind, status: OrderStatus): boolean {
  return SETTLED_STATUSES[kind].includes(status);
}

/** A charge's state → the order status it means (pending: nothing to learn). */
export function orderStatusOfCharge(state: PaymentState): OrderStatus | null {
  return state === 'pending' ? null : state;
}

/**
 * A card setup's state → order status, while a subscription order waits for its card. Its
 * success changes nothing: the subscription created from it says whether the order is paid.
 */
export function orderStatusOfCardSetup(state: PaymentState): OrderStatus | null {
  return state === 'requires_action' || state === 'failed' || state === 'canceled' ? state : null;
}

/** A subscription's state → order status (pending and paused: nothing to learn). */
export function orderStatusOfSubscription(state: SubscriptionState): OrderStatus | null {
  return state === 'pending' || state === 'paused' ? null : state;
}
