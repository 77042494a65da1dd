import type { CreateIntentResponse, CreatePaymentIntentRequest } from '@contracts/payments';
import { apiPost } from '@/lib/api-client';

/** One-time plans: the server checks `amount` and the plan's display name against the catalogue. */
export function createPaymentIntent(request: CreatePaymentIntentRequest): Promise<CreateIntentResponse> {
  return apiPost<CreateIntentResponse>('/api/create-payment-intent', request);
}
