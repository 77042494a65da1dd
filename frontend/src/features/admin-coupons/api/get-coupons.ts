import type { AdminCoupon } from '@contracts/coupons';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';

export const couponsKey = ['api', 'admin', 'coupons'] as const satisfies ApiQueryKey;

function getCoupons({ signal }: { signal?: AbortSignal } = {}): Promise<AdminCoupon[]> {
  return apiGet<AdminCoupon[]>(couponsKey, { signal });
}

const couponsQuery = queryOptions({ queryKey: couponsKey, queryFn: getCoupons });

export function useCoupons() {
  return useQuery(couponsQuery);
}
