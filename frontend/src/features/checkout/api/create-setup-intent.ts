import type { CreateIntentResponse, CreateSetupIntentRequest } from '@contracts/payments';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '@/lib/api-client';

/** Subscription plans (standard, premium): the card is saved first, the subscription created after. */
export function createSetupIntent(request: CreateSetupIntentRequest): Promise<CreateIntentResponse> {
  return apiPost<CreateIntentResponse>('/api/create-setup-intent', request);
}

export function useCreateSetupIntent() {
  return useMutation({ mutationFn: createSetupIntent });
}
