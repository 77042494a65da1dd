import type { CouponQuote } from '@contracts/coupons';
import type { PlanId } from '@contracts/plans';
import { apiRequest, withParams } from '@/lib/api-client';

/** What the plan costs today with the code, computed by the server (an unusable code: valid false, why, and the full price). */
export function getCouponQuote(code: string, plan: PlanId, signal: AbortSignal): Promise<CouponQuote> {
  return apiRequest<CouponQuote>('GET', withParams('/api/coupons/quote', { code, plan }), { signal });
}
