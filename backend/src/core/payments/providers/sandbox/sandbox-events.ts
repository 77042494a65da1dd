import type { SandboxWebhookEvent } from '@contracts/jobs';
import { findPlan, type Plan } from '@contracts/plans';
import { STRIPE_API_VERSION } from '../stripe/stripe-client';
import { billingInterval, priceLookupKey } from '../stripe/stripe-prices';
import type { SandboxObjectRow } from '../../../database/repositories/sandbox-object.repository';
import { sandboxId } from './sandbox-ids';

/**
 * What a payment object charged: a charge's or an invoice's amount; a subscription (named for its
 * first invoice) its first period with the one-off line of that invoice.
 */
export const chargedCents = (row: Pick<SandboxObjectRow, 'amount_cents' | 'invoice_item_cents'>): number =>
  (row.amount_cents ?? 0) + (row.invoice_item_cents ?? 0);

export type SandboxIntentKind = 'payment_intent' | 'setup_intent';

/** Stripe's webhook event names for what a confirmation or an authentication does to each intent kind. */
const INTENT_EVENTS = {
  payment_intent: {
    succeeded: 'payment_intent.succeeded',
    failed: 'payment_intent.payment_failed',
    requires_action: 'payment_intent.requires_action',
  },
  setup_intent: {
    succeeded: 'setup_intent.succeeded',
    failed: 'setup_intent.setup_failed',
    requires_action: 'setup_intent.requires_action',
  },
} as const;

/**
 * Events the sandbox stores already applied, owing no job, because applying them would change
 * nothing:
 * - an intent's `created` event reports it in its first state, which moves no order, and is stored
 *   in the transaction that creates the intent, for an order the creating request stores its id
 *   on. Whatever the intent does next (a confirmation, a decline, an authentication, or a one-click
 *   charge made and settled at once) is an event of its own, emitted with it.
 * - a card setup's success moves no order either (`orderStatusOfCardSetup`: the subscription
 *   created from it says whether the order is paid, and its own events are applied), and the
 *   setup it reports is one the order already holds: a checkout's setup id is stored before its
 *   secret is handed to the browser. A setup's decline or authentication is applied.
 */
export const NOTHING_TO_APPLY: ReadonlySet<string> = new Set(['payment_intent.created', 'setup_intent.created', 'setup_intent.succeeded']);

const unix = (date: Date = new Date()) => Math.floor(date.getTime() / 1000);
const metadataOf = (row: SandboxObjectRow) => ({ order_id: row.order_id, plan_id: row.plan_id });

/** An event as Stripe sends it to a webhook endpoint; `data.object` is shaped like Stripe's object. */
export function stripeEvent(type: string, object: Record<string, unknown>, at?: Date): SandboxWebhookEvent {
  return {
    id: sandboxId('evt'),
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: unix(at),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** The event a card confirmation or an authentication causes on an intent, as Stripe names it. */
export function intentEvent(
  kind: SandboxIntentKind,
  outcome: keyof (typeof INTENT_EVENTS)[SandboxIntentKind],
  row: SandboxObjectRow,
): SandboxWebhookEvent {
  return stripeEvent(INTENT_EVENTS[kind][outcome], kind === 'payment_intent' ? paymentIntentObject(row) : setupIntentObject(row));
}

/** Never includes the client secret: webhook payloads end up in the outbox and the events table. */
export function paymentIntentObject(row: SandboxObjectRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'payment_intent',
    amount: row.amount_cents,
    amount_received: row.status === 'succeeded' ? row.amount_cents : 0,
    currency: row.currency,
    customer: row.customer_id,
    payment_method: row.payment_method_id,
    setup_future_usage: 'off_session',
    status: row.status,
    last_payment_error: row.last_error,
    metadata: metadataOf(row),
    livemode: false,
    created: unix(row.created_at),
  };
}

export function setupIntentObject(row: SandboxObjectRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'setup_intent',
    customer: row.customer_id,
    payment_method: row.payment_method_id,
    usage: 'off_session',
    status: row.status,
    last_setup_error: row.last_error,
    metadata: metadataOf(row),
    livemode: false,
    created: unix(row.created_at),
  };
}

/** A subscription as Stripe sends it, with the Price of its plan (a plan gone from the catalogue bills monthly, as before). */
export function subscriptionObject(row: SandboxObjectRow, invoiceId: string | null, currentPeriodEnd?: Date): Record<string, unknown> {
  const plan: Pick<Plan, 'id' | 'interval'> = findPlan(row.plan_id) ?? { id: row.plan_id };
  return {
    id: row.id,
    object: 'subscription',
    customer: row.customer_id,
    default_payment_method: row.payment_method_id,
    status: row.status,
    cancel_at_period_end: row.cancel_at_period_end,
    pause_collection: row.pause_resumes_at ? { behavior: 'void', resumes_at: unix(row.pause_resumes_at) } : null,
    latest_invoice: invoiceId,
    items: {
      object: 'list',
      data: [
        {
          object: 'subscription_item',
          // As the pinned API version keeps it: the billing period on the subscription's item.
          ...(currentPeriodEnd && { current_period_end: unix(currentPeriodEnd) }),
          price: {
            object: 'price',
            lookup_key: priceLookupKey(plan),
            unit_amount: row.amount_cents,
            currency: row.currency,
            recurring: { interval: billingInterval(plan) },
          },
        },
      ],
    },
    metadata: metadataOf(row),
    livemode: false,
    created: unix(row.created_at),
  };
}

/** An invoice's `parent` as the pinned API version shapes it: the subscription it bills, with the subscription's metadata. */
function parentOf(subscription: SandboxObjectRow): Record<string, unknown> {
  return {
    type: 'subscription_details',
    quote_details: null,
    subscription_details: { subscription: subscription.id, metadata: metadataOf(subscription) },
  };
}

export function invoiceObject(subscription: SandboxObjectRow, invoiceId: string, paid: boolean): Record<string, unknown> {
  return {
    id: invoiceId,
    object: 'invoice',
    billing_reason: 'subscription_create',
    customer: subscription.customer_id,
    parent: parentOf(subscription),
    status: paid ? 'paid' : 'open',
    amount_due: chargedCents(subscription),
    amount_paid: paid ? chargedCents(subscription) : 0,
    currency: subscription.currency,
    livemode: false,
    created: unix(),
  };
}

/** A renewal's invoice (`invoice`, a sandbox object of the subscription's order: paid, open while retried, or uncollectible), as Stripe shapes one. */
export function renewalInvoiceObject(subscription: SandboxObjectRow, invoice: SandboxObjectRow): Record<string, unknown> {
  return {
    id: invoice.id,
    object: 'invoice',
    billing_reason: 'subscription_cycle',
    customer: subscription.customer_id,
    parent: parentOf(subscription),
    status: invoice.status,
    amount_due: invoice.amount_cents,
    amount_paid: invoice.status === 'paid' ? invoice.amount_cents : 0,
    currency: invoice.currency,
    attempt_count: invoice.attempt_count,
    next_payment_attempt: invoice.next_attempt_at ? unix(invoice.next_attempt_at) : null,
    status_transitions: { paid_at: invoice.status === 'paid' ? unix(invoice.created_at) : null },
    livemode: false,
    created: unix(invoice.created_at),
  };
}

/** A refund as Stripe shapes one; `requestKey` is the admin request it was made for (its metadata). */
export function refundObject(row: SandboxObjectRow, paymentIntentId: string, requestKey: string | null): Record<string, unknown> {
  return {
    id: row.id,
    object: 'refund',
    amount: row.amount_cents,
    currency: row.currency,
    payment_intent: paymentIntentId,
    status: row.status,
    metadata: { order_id: row.order_id, ...(requestKey ? { refund_request: requestKey } : {}) },
    created: unix(row.created_at),
  };
}

/**
 * The charge of a refunded payment, as Stripe's `charge.refunded` event carries it. The sandbox
 * has no charge objects of its own: the payment's own id (charge, subscription or invoice) names it.
 */
export function refundedChargeObject(payment: SandboxObjectRow, refundedCents: number): Record<string, unknown> {
  return {
    id: payment.id,
    object: 'charge',
    amount: chargedCents(payment),
    amount_refunded: refundedCents,
    refunded: refundedCents >= chargedCents(payment),
    currency: payment.currency,
    payment_intent: payment.id,
    metadata: metadataOf(payment),
    livemode: false,
    created: unix(payment.created_at),
  };
}
