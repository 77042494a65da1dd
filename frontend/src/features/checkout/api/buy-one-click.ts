import type { OneClickPurchaseRequest, OneClickPurchaseResponse } from '@contracts/payments';
import { apiPost } from '@/lib/api-client';

/** Charges the card this browser saved; a module of its own, so only the one-click offer's chunk carries it. */
export function buyOneClick(request: OneClickPurchaseRequest): Promise<OneClickPurchaseResponse> {
  return apiPost<OneClickPurchaseResponse>('/api/one-click', request);
}
