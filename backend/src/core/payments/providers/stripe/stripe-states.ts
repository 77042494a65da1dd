import type { DisputeOutcome, RefundState } from '@contracts/payments';
import type { PaymentState, SubscriptionState } from '../../payment-gateway';

/**
 * A payment intent's or setup intent's status word (with whether it carries a last error) in
 * neutral terms. A card that was tried and refused leaves Stripe's intent waiting for another
 * card (requires_payment_method) with an error: that is a failure the buyer may retry.
 */
export function intentState(status: string, hasError: boolean): PaymentState {
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
      return hasError ? 'failed' : 'pending';
    default:
      return 'pending';
  }
}

/**
 * A subscription's status word in neutral terms (trialing counts as active). `unpaid` is Stripe's
 * end of retries when its setting says 'mark the subscription as unpaid': it ends access until a
 * payment makes it active again. An incomplete first payment that expired never started.
 */
export function subscriptionState(status: string): SubscriptionState {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'incomplete':
      return 'incomplete';
    case 'past_due':
      return 'past_due';
    case 'unpaid':
      return 'unpaid';
    case 'paused':
      return 'paused';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return 'pending';
  }
}

/** A refund's status word in neutral terms (one waiting for the customer's action is still pending). */
export function refundState(status: string | null): RefundState {
  return status === 'succeeded' || status === 'failed' || status === 'canceled' ? status : 'pending';
}

/**
 * A dispute's status word in neutral terms: won and lost are final, every other status (an
 * inquiry, an appeal) is still disputed. `prevented` is final too: Stripe's dispute prevention
 * either resolved it by giving the cardholder the money back (case type `resolution`), which ends
 * access as a lost dispute does, or blocked it (`block`), which leaves the money with us. An
 * inquiry closed without becoming a chargeback (`warning_closed`) never took the money: it ends
 * as won, else the payment would show an open dispute for ever.
 */
export function disputeOutcome(status: string, caseType?: string | null): DisputeOutcome {
  if (status === 'won' || status === 'lost') return status;
  if (status === 'warning_closed') return 'won';
  if (status === 'prevented') return caseType === 'block' ? 'won' : 'lost';
  return 'disputed';
}
