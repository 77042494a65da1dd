import type { SandboxWebhookEvent } from '@contracts/jobs';
import type { SandboxDisputeEvidence } from '@contracts/payments';
import { CURRENCY } from '@contracts/plans';
import type { NewSandboxObject, SandboxObjectRow } from '../../../database/repositories/sandbox-object.repository';
import type { Dispute } from '../../payment-gateway';
import { disputeOutcome } from '../stripe/stripe-states';
import { firstInvoiceId, sandboxId } from './sandbox-ids';

/**
 * The test outcome of Stripe's card 4000 0000 0000 0259: each charge succeeds, then the
 * cardholder disputes it as fraudulent (https://docs.stripe.com/testing#disputes).
 */
export const DISPUTED_CARD_OUTCOME = 'disputed';

/** Stripe's test evidence (its `uncategorized_text`) and the status each closes a dispute with. */
export const EVIDENCE_CLOSES_AS: Readonly<Record<SandboxDisputeEvidence, 'won' | 'lost'>> = {
  winning_evidence: 'won',
  losing_evidence: 'lost',
};

/** A payment a success event reports: the id our payments table holds it under, and the object that holds the card it was charged to. */
export interface SandboxPaidCharge {
  paymentId: string;
  cardHolder: { object: 'payment_intent' | 'subscription'; id: string };
  amountCents: number;
  currency: string;
  at: Date;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const cents = (value: unknown): number => (typeof value === 'number' ? value : 0);

/**
 * The payment a sandbox event reports made, if any: a charge (`payment_intent.succeeded`), or an
 * invoice (`invoice.paid`): a subscription's first, which our payments table and the sandbox's
 * refunds name by the subscription's id, or a renewal or instalment, named by its own id.
 */
export function paidChargeOf(event: SandboxWebhookEvent): SandboxPaidCharge | null {
  const object = event.data.object;
  const at = new Date(event.created * 1000);
  if (event.type === 'payment_intent.succeeded') {
    const id = text(object.id);
    return {
      paymentId: id,
      cardHolder: { object: 'payment_intent', id },
      amountCents: cents(object.amount_received),
      currency: text(object.currency),
      at,
    };
  }
  if (event.type === 'invoice.paid') {
    const parent = object.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
    const subscription = text(parent?.subscription_details?.subscription);
    const paymentId = object.billing_reason === 'subscription_create' ? subscription : text(object.id);
    return {
      paymentId,
      cardHolder: { object: 'subscription', id: subscription },
      amountCents: cents(object.amount_paid),
      currency: text(object.currency),
      at,
    };
  }
  return null;
}

/** The dispute the bank files against a payment of a disputed card: one per payment (its idempotency key), awaiting evidence. */
export function newDispute(paid: SandboxPaidCharge, cardHolder: SandboxObjectRow): NewSandboxObject {
  return {
    id: sandboxId('dp'),
    object: 'dispute',
    orderId: cardHolder.order_id,
    idempotencyKey: `sandbox-dispute:${paid.paymentId}`,
    clientSecret: null,
    status: 'needs_response',
    amountCents: paid.amountCents,
    currency: paid.currency,
    customerId: cardHolder.customer_id,
    refundedId: paid.paymentId,
    createdAt: paid.at,
  };
}

/**
 * A dispute as Stripe shapes one in its `charge.dispute.*` events. The sandbox has no charge
 * objects: the disputed payment's own id names the charge, and the payment intent when it is one.
 */
export function disputeObject(row: SandboxObjectRow, evidence: SandboxDisputeEvidence | null): Record<string, unknown> {
  const charge = row.refunded_id ?? null;
  return {
    id: row.id,
    object: 'dispute',
    amount: row.amount_cents,
    currency: row.currency,
    charge,
    payment_intent: charge?.startsWith('pi_') ? charge : null,
    reason: 'fraudulent',
    status: row.status,
    evidence: { uncategorized_text: evidence },
    evidence_details: { has_evidence: evidence !== null, submission_count: evidence === null ? 0 : 1, past_due: false },
    metadata: {},
    livemode: false,
    created: Math.floor(row.created_at.getTime() / 1000),
  };
}

/**
 * A sandbox dispute in neutral terms. Its payment ids are those our payments table may hold the
 * payment under, as the sandbox's refunds name them: a subscription's first payment also by its
 * first invoice, as Stripe's adapter reports one.
 */
export function disputeOf(row: SandboxObjectRow): Dispute {
  const paymentId = row.refunded_id ?? '';
  return {
    disputeId: row.id,
    outcome: disputeOutcome(row.status),
    amountCents: row.amount_cents ?? 0,
    currency: row.currency ?? CURRENCY.toLowerCase(),
    paymentIds: paymentId.startsWith('sub_') ? [firstInvoiceId({ id: paymentId }), paymentId] : paymentId ? [paymentId] : [],
  };
}
