import type { ExhaustedJobRetry } from '@contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from '@/lib/admin-session';

export function useRetryExhaustedJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      adminRequest<ExhaustedJobRetry>(queryClient, 'POST', `/api/admin/exhausted-jobs/${encodeURIComponent(id)}/retry`),
    // The list and the audit log both changed.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['api', 'admin'], predicate: (query) => query.queryKey[2] !== 'session' }),
  });
}
