import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminRequest, adminSessionKey } from '@/lib/admin-session';

/** Signs out; whatever the answer (even 401: already signed out), this browser forgets the session. */
export function useAdminLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => adminRequest<void>(queryClient, 'POST', '/api/admin/logout'),
    onSettled: () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] === 'api' && query.queryKey[1] !== 'admin' });
      queryClient.setQueryData(adminSessionKey, null);
    },
  });
}
