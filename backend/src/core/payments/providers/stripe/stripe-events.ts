import type Stripe from 'stripe';
import { DECLINE_REASONS, INTENT_DECLINED_KINDS, orderRefOf } from '../../payment-gateway';
import { STRIPE_API_VERSION } from './stripe-client';
import type { AfterPaymentSubject, DeclineReason, PaymentEvent, PaymentEventKind, PaymentObjectKind, WebhookRecord } from '../../payment-gateway';

/** Which object a Stripe event names, and our order id from the object's metadata. */
export interface StripeSubject {
  object: PaymentObjectKind;
  objectId: string;
  orderRef: string | undefined;
  /** The invoice an `invoice.*` event is about. */
  invoiceId?: string;
  /** The refund, dispute or refunded charge of a refund or dispute event. */
  after?: AfterPaymentSubject;
}

/**
 * The Stripe event types this system acts on: what `npm run stripe:setup` subscribes the webhook
 * endpoint to, what README's going-live step lists, and all the Stripe adapter reads (others, such
 * as `stripe listen` forwards by default, are stored and skipped). Each re-reads its object, so
 * a type is here when it can be the only news of a change: an intent's outcome, a subscription's
 * state or terms, a renewal paid or failed, a refund or dispute.
 */
export const STRIPE_WEBHOOK_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.processing',
  'payment_intent.requires_action',
  'payment_intent.canceled',
  'setup_intent.succeeded',
  'setup_intent.setup_failed',
  'setup_intent.requires_action',
  'setup_intent.canceled',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.paused',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'charge.refunded',
  'refund.created',
  'refund.updated',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
] as const satisfies readonly Stripe.WebhookEndpointCreateParams.EnabledEvent[];

const SUBSCRIBED: ReadonlySet<string> = new Set(STRIPE_WEBHOOK_EVENTS);

/** Whether the Stripe adapter acts on events of this type (see STRIPE_WEBHOOK_EVENTS). */
export const isSubscribedStripeEvent = (type: string): boolean => SUBSCRIBED.has(type);

/** Stripe event types with a neutral meaning of their own; other events of an object are its updates. */
const KINDS: Readonly<Record<string, PaymentEventKind>> = {
  'payment_intent.created': 'charge.created',
  'payment_intent.requires_action': 'charge.requires_action',
  'payment_intent.processing': 'charge.processing',
  'payment_intent.succeeded': 'charge.succeeded',
  'payment_intent.payment_failed': 'charge.failed',
  'payment_intent.canceled': 'charge.canceled',
  'setup_intent.created': 'setup.created',
  'setup_intent.requires_action': 'setup.requires_action',
  'setup_intent.succeeded': 'setup.succeeded',
  'setup_intent.setup_failed': 'setup.failed',
  'setup_intent.canceled': 'setup.canceled',
  'customer.subscription.created': 'subscription.created',
  'customer.subscription.deleted': 'subscription.canceled',
  'invoice.paid': 'subscription.paid',
  'invoice.payment_failed': 'subscription.payment_failed',
  'charge.refunded': 'payment.refunded',
  'refund.created': 'refund.created',
  'refund.updated': 'refund.updated',
  'charge.dispute.created': 'dispute.created',
  'charge.dispute.updated': 'dispute.updated',
  'charge.dispute.closed': 'dispute.closed',
};

/** Refund and dispute events: which object of theirs the worker re-reads. */
const AFTER_PAYMENT: Readonly<Record<string, AfterPaymentSubject['object']>> = {
  'charge.refunded': 'payment',
  'refund.created': 'refund',
  'refund.updated': 'refund',
  'charge.dispute.created': 'dispute',
  'charge.dispute.updated': 'dispute',
  'charge.dispute.closed': 'dispute',
};

/** Event type prefixes of the objects an order holds. */
const OBJECTS: ReadonlyArray<[string, PaymentObjectKind]> = [
  ['payment_intent.', 'charge'],
  ['setup_intent.', 'setup'],
  ['customer.subscription.', 'subscription'],
];

const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const orderRefIn = (metadata: unknown): string | undefined =>
  orderRefOf((metadata as Record<string, unknown> | null | undefined)?.order_id);
const idIn = (value: unknown): string | undefined => str(value) ?? str((value as { id?: unknown } | null | undefined)?.id);

/**
 * The subscription an invoice bills, with the subscription's metadata, in either shape Stripe
 * sends: from 2025-03-31.basil on under `parent.subscription_details`; before that (acacia and
 * older) as `subscription` and `subscription_details` on the invoice itself. An endpoint left on
 * an older version, or `stripe listen` forwarding the account's default, still maps its renewals.
 */
function invoiceSubscriptionOf(invoice: Record<string, unknown>): { id: string | undefined; metadata: unknown } {
  const parent = invoice.parent as { subscription_details?: { subscription?: unknown; metadata?: unknown } | null } | null | undefined;
  const current = parent?.subscription_details;
  if (current) return { id: idIn(current.subscription), metadata: current.metadata };
  const older = invoice.subscription_details as { metadata?: unknown } | null | undefined;
  return { id: idIn(invoice.subscription), metadata: older?.metadata };
}

/** The object an event names: intents and subscriptions directly, invoices through their subscription. */
export function stripeSubjectOf(type: string, object: Record<string, unknown>): StripeSubject | null {
  const id = str(object.id);
  const after = AFTER_PAYMENT[type];
  if (after && id) {
    // Named by the payment intent it is about when it carries one (an order's one-time charge).
    const charge = str(object.payment_intent) ?? id;
    return { object: 'charge', objectId: charge, orderRef: orderRefIn(object.metadata), after: { object: after, id } };
  }
  const named = OBJECTS.find(([prefix]) => type.startsWith(prefix));
  if (named && id) return { object: named[1], objectId: id, orderRef: orderRefIn(object.metadata) };
  if (type === 'invoice.paid' || type === 'invoice.payment_failed') {
    const subscription = invoiceSubscriptionOf(object);
    if (subscription.id) {
      return {
        object: 'subscription',
        objectId: subscription.id,
        orderRef: orderRefIn(subscription.metadata),
        ...(id && { invoiceId: id }),
      };
    }
  }
  return null;
}

/** API versions as Stripe names them (`2026-10-28.endive`); anything else is one label, not many. */
const API_VERSION = /^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/;

/**
 * The API version a Stripe event was written in when it is not the pinned one (its webhook
 * endpoint, or `stripe listen`, is on another version), else null. An event without one (the
 * sandbox's are stamped with the pinned version) is null too.
 */
export function otherApiVersionOf(record: WebhookRecord): string | null {
  const version = record.api_version;
  if (typeof version !== 'string' || !version || version === STRIPE_API_VERSION) return null;
  return API_VERSION.test(version) ? version : 'unrecognised';
}

const NEUTRAL_DECLINE_REASONS: ReadonlySet<string> = new Set(DECLINE_REASONS);

/**
 * Why an intent was declined, from its last error: the bank's decline code, else Stripe's error
 * code (an authentication that failed has no decline code).
 */
function stripeDeclineReason(object: Record<string, unknown>): DeclineReason {
  const error = (object.last_payment_error ?? object.last_setup_error) as { decline_code?: unknown; code?: unknown } | null | undefined;
  const code = error?.decline_code ?? error?.code;
  return typeof code === 'string' && NEUTRAL_DECLINE_REASONS.has(code) ? (code as DeclineReason) : 'other';
}

/** A Stripe-shaped event (Stripe's, or the sandbox's imitation) in neutral terms. */
export function stripeEventOf(record: WebhookRecord): PaymentEvent | null {
  const data = (record.data as { object?: unknown } | null | undefined)?.object;
  const object = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const subject = stripeSubjectOf(record.type, object);
  if (!subject) return null;
  const kind = KINDS[record.type] ?? `${subject.object}.updated`;
  return {
    kind,
    providerEventId: record.id,
    ...subject,
    occurredAt: typeof record.created === 'number' ? new Date(record.created * 1000) : null,
    ...(INTENT_DECLINED_KINDS.has(kind) && { declineReason: stripeDeclineReason(object) }),
  };
}
