import type { CreateIntentResponse, CreatePaymentIntentRequest } from '@contracts/payments';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '@/lib/api-client';

/** One-time plans: the server checks `amount` and the plan's display name against the catalogue. */
export function createPaymentIntent(request: CreatePaymentIntentRequest): Promise<CreateIntentResponse> {
  return apiPost<CreateIntentResponse>('/api/create-payment-intent', request);
}

export function useCreatePaymentIntent() {
  return useMutation({ mutationFn: createPaymentIntent });
}
