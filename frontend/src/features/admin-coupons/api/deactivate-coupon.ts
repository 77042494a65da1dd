import type { AdminCoupon } from '@contracts/coupons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from '@/lib/admin-session';
import { couponsKey } from './get-coupons';

/** Deactivates a coupon: checkout refuses it from now on; orders made with it keep it. */
export function useDeactivateCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      adminRequest<AdminCoupon>(queryClient, 'POST', `/api/admin/coupons/${encodeURIComponent(id)}/deactivate`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: couponsKey }),
  });
}
