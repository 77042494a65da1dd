import type { AdminCoupon, CreateCouponRequest } from '@contracts/coupons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from '@/lib/admin-session';
import { couponsKey } from './get-coupons';

/** POST a new coupon (CSRF token and audit entry handled by the admin session and the server). */
export function useCreateCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateCouponRequest) => adminRequest<AdminCoupon>(queryClient, 'POST', '/api/admin/coupons', request),
    onSettled: () => queryClient.invalidateQueries({ queryKey: couponsKey }),
  });
}
