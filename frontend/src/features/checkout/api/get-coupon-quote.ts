import type { CouponQuote } from '@contracts/coupons';
import type { PlanId } from '@contracts/plans';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, withParams } from '@/lib/api-client';

/** What the plan costs today with the code, computed by the server (an unusable code: valid false, why, and the full price). */
export function getCouponQuote(code: string, plan: PlanId, { signal }: { signal?: AbortSignal } = {}): Promise<CouponQuote> {
  return apiRequest<CouponQuote>('GET', withParams('/api/coupons/quote', { code, plan }), { signal });
}

export const couponQuoteQuery = (code: string, plan: PlanId) =>
  queryOptions({
    queryKey: ['api', 'coupons', 'quote', plan, code],
    queryFn: ({ signal }) => getCouponQuote(code, plan, { signal }),
    staleTime: 60_000,
  });

/** The quote of the code the buyer applied; idle without one. */
export function useCouponQuote(code: string | null, plan: PlanId) {
  return useQuery({ ...couponQuoteQuery(code ?? '', plan), enabled: code !== null });
}
