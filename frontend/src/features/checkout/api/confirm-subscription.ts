import type { ConfirmSubscriptionRequest, ConfirmSubscriptionResponse } from '@contracts/payments';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '@/lib/api-client';

/** Turns a confirmed setup intent into the subscription. */
export function confirmSubscription(request: ConfirmSubscriptionRequest): Promise<ConfirmSubscriptionResponse> {
  return apiPost<ConfirmSubscriptionResponse>('/api/confirm-subscription', request);
}

export function useConfirmSubscription() {
  return useMutation({ mutationFn: confirmSubscription });
}
