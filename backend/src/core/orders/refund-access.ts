import type { RefundReason } from '../database/repositories/refund.repository';

/**
 * Whether money going back ends a membership's access now: a refund that leaves its payment
 * refunded in full (the admin's default), or a lost dispute whatever its amount. A partial refund
 * is a goodwill gesture: the member keeps their access. The one place this is decided; the
 * membership record asks it too (see OrderLifecycle in order-lifecycle.ts).
 */
export function refundEndsAccess(reason: RefundReason, paymentAmountCents: number, refundedOfPaymentCents: number): boolean {
  return reason === 'dispute' || refundedOfPaymentCents >= paymentAmountCents;
}
