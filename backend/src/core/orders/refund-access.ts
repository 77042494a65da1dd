/** Why money went back to a buyer: a refund (made from admin or in the provider's dashboard) or a lost dispute. */
export type RefundReason = 'refund' | 'dispute';

/**
 * Whether money going back ends a membership's access now: a refund that leaves its payment
 * refunded in full (the admin's default), or a lost dispute whatever its amount. A partial refund
 * is a goodwill gesture: the member keeps their access. The one place this is decided; the
 * membership record asks it too (see OrderLifecycle in order-lifecycle.ts).
 */
export function refundEndsAccess(reason: RefundReason, paymentAmountCents: number, refundedOfPaymentCents: number): boolean {
  return reason === 'dispute' || refundedOfPaymentCents >= paymentAmountCents;
}
