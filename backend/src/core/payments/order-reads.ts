import type { OrderIdColumn, OrderRow } from '../database/repositories/order.repository';
import { orderStatusOfCardSetup, orderStatusOfCharge, orderStatusOfSubscription, type OrderStatus } from '../orders/order-state';
import { findPlan, type Plan } from '@contracts/plans';
import type { GatewayOrder, PaymentGateway } from './payment-gateway';

/** A provider object an order holds, by the order column that holds its id. */
export interface OrderObject {
  column: OrderIdColumn;
  objectId: string;
}

/**
 * What the provider says now about one of an order's objects, as the order status it means
 * (null: nothing to learn yet). The webhook path and the reconciler read through this, under the
 * order's row lock (`OrderLifecycle.providerRead`, `OrderLifecycle.providerEvents`).
 */
export async function readOrderStatus(gateway: PaymentGateway, object: OrderObject): Promise<OrderStatus | null> {
  switch (object.column) {
    case 'payment_intent_id':
      return orderStatusOfCharge(await gateway.readCharge(object.objectId));
    case 'setup_intent_id':
      return orderStatusOfCardSetup(await gateway.readCardSetup(object.objectId));
    case 'subscription_id':
      return orderStatusOfSubscription(await gateway.readSubscription(object.objectId));
  }
}

/**
 * The object that says where an order stands: a one-time order's charge; a subscription order's
 * subscription, or its card setup while it has none. Null for an order that never got one.
 */
export function objectOf(order: Pick<OrderRow, 'kind' | 'payment_intent_id' | 'setup_intent_id' | 'subscription_id'>): OrderObject | null {
  if (order.kind === 'one-time') return order.payment_intent_id ? { column: 'payment_intent_id', objectId: order.payment_intent_id } : null;
  if (order.subscription_id) return { column: 'subscription_id', objectId: order.subscription_id };
  return order.setup_intent_id ? { column: 'setup_intent_id', objectId: order.setup_intent_id } : null;
}

/**
 * An order as the gateway is told about it, charged on the catalogue's plan. The order's amount is
 * its first charge's whole: the add-on's part is told apart, as the gateway charges it.
 */
export function gatewayOrderOf(order: OrderRow, plan: Plan): GatewayOrder {
  const bumpCents = order.bump_amount_cents ?? 0;
  const bumpPlan = order.bump_plan_id ? findPlan(order.bump_plan_id) : undefined;
  return {
    id: order.id,
    plan,
    amountCents: order.amount_cents - bumpCents,
    bump: bumpCents > 0 ? { planId: order.bump_plan_id as string, name: bumpPlan?.name ?? (order.bump_plan_id as string), amountCents: bumpCents } : null,
    currency: order.currency,
    email: order.email,
    emailNormalized: order.email_normalized,
    name: order.name,
    customerId: order.customer_id,
  };
}
