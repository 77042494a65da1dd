import type { PersonData } from '@contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, withParams } from '@/lib/api-client';
import { auditKey } from './get-audit';

/** A lookup is an action (it is audited), so it runs when asked, not as a cached query. */
function getPerson(email: string): Promise<PersonData> {
  return apiRequest<PersonData>('GET', withParams('/api/admin/people', { email }));
}

export function useFindPerson() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: getPerson, onSettled: () => queryClient.invalidateQueries({ queryKey: auditKey }) });
}
