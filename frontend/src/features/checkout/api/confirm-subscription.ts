import type { ConfirmSubscriptionRequest, ConfirmSubscriptionResponse } from '@contracts/payments';
import { apiPost } from '@/lib/api-client';

/** Turns a confirmed setup intent into the subscription. */
export function confirmSubscription(request: ConfirmSubscriptionRequest): Promise<ConfirmSubscriptionResponse> {
  return apiPost<ConfirmSubscriptionResponse>('/api/confirm-subscription', request);
}
