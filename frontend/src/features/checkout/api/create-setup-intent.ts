import type { CreateIntentResponse, CreateSetupIntentRequest } from '@contracts/payments';
import { apiPost } from '@/lib/api-client';

/** Subscription plans: the card is saved first, the subscription created after. */
export function createSetupIntent(request: CreateSetupIntentRequest): Promise<CreateIntentResponse> {
  return apiPost<CreateIntentResponse>('/api/create-setup-intent', request);
}
