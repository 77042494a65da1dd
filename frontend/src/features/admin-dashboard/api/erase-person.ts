import type { ErasePersonRequest, ErasePersonResponse } from '@contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from '@/lib/admin-session';

export function useErasePerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ErasePersonRequest) => adminRequest<ErasePersonResponse>(queryClient, 'POST', '/api/admin/people/erase', request),
    // Lists, figures (names on orders) and the audit log all changed.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['api', 'admin'], predicate: (query) => query.queryKey[2] !== 'session' }),
  });
}
