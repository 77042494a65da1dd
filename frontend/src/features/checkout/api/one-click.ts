import type { OneClickOfferResponse } from '@contracts/payments';
import { apiRequest, withParams } from '@/lib/api-client';

/** Whether this browser (which has just paid) may buy the plan with its saved card. Never cached: the binding ends. */
export function getOneClickOffer(planId: string, email: string, signal?: AbortSignal): Promise<OneClickOfferResponse> {
  return apiRequest<OneClickOfferResponse>('GET', withParams('/api/one-click', { planId, email }), { signal });
}
