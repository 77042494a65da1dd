import type { PaymentKind } from '@contracts/plans';
import type { OrderStatus } from '@core/orders/order-state';

/**
 * The status word the verification endpoints answer with. The API contract keeps the words the
 * success page was written against (Stripe's, from before the gateway was neutral): it compares
 * them with 'succeeded' and 'active' and shows any other word.
 */
export function verificationStatus(kind: PaymentKind, status: OrderStatus): string {
  if (status === 'created' || status === 'failed') return kind === 'subscription' ? 'incomplete' : 'requires_payment_method';
  if (kind === 'subscription' && status === 'requires_action') return 'incomplete';
  return status;
}
