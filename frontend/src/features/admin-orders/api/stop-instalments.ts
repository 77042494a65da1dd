import type { AdminInstalmentStop } from '@contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from '@/lib/admin-session';

/** POST the stop of an order's instalment plan; sent again, it answers with the same stop. */
export function useStopInstalments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) =>
      adminRequest<AdminInstalmentStop>(queryClient, 'POST', `/api/admin/billing/orders/${encodeURIComponent(orderId)}/stop-instalments`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['api', 'admin', 'billing'] }),
  });
}
