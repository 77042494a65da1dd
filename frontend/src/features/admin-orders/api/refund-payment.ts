import type { AdminRefund, AdminRefundRequest } from '@contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from '@/lib/admin-session';

export interface RefundPaymentVariables extends AdminRefundRequest {
  paymentId: string;
}

/** POST the refund; the same requestKey (made when the dialog opened) is the same refund, however often it is sent. */
export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ paymentId, ...request }: RefundPaymentVariables) =>
      adminRequest<AdminRefund>(queryClient, 'POST', `/api/admin/billing/payments/${encodeURIComponent(paymentId)}/refunds`, request),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['api', 'admin', 'billing'] }),
  });
}
