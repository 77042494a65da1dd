import type { OneClickOfferResponse, OneClickPurchaseRequest, OneClickPurchaseResponse } from '@contracts/payments';
import { useQuery } from '@tanstack/react-query';
import { apiPost, apiRequest, withParams } from '@/lib/api-client';

/** Whether this browser (which has just paid) may buy the plan with its saved card. Never cached: the binding ends. */
export function getOneClickOffer(planId: string, email: string, signal?: AbortSignal): Promise<OneClickOfferResponse> {
  return apiRequest<OneClickOfferResponse>('GET', withParams('/api/one-click', { planId, email }), { signal });
}

export function useOneClickOffer(planId: string, email: string | null, enabled: boolean) {
  return useQuery({
    queryKey: ['api', 'one-click', planId, email ?? ''],
    queryFn: ({ signal }) => getOneClickOffer(planId, email ?? '', signal),
    enabled: enabled && Boolean(email),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

export function buyOneClick(request: OneClickPurchaseRequest): Promise<OneClickPurchaseResponse> {
  return apiPost<OneClickPurchaseResponse>('/api/one-click', request);
}
