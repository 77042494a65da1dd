import type { PersonData } from '@contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dashboardGet } from './dashboard-request';
import { auditKey } from './get-audit';

/** A lookup is an action (it is audited), so it runs when asked, not as a cached query. */
export function getPerson(email: string): Promise<PersonData> {
  return dashboardGet<PersonData>('/api/admin/people', { email });
}

export function useFindPerson() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: getPerson, onSettled: () => queryClient.invalidateQueries({ queryKey: auditKey }) });
}
