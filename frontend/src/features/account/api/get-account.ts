import type { AccountResponse } from '@contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client';

export const accountKey = ['api', 'account'] as const;

/** The signed-in buyer's memberships; null without a session (401). */
export const accountQuery = () =>
  queryOptions({
    queryKey: accountKey,
    queryFn: ({ signal }) => apiGet<AccountResponse>(accountKey, { signal, on401: 'null' }),
    retry: false,
    staleTime: 0,
  });

export function useAccount(enabled: boolean) {
  return useQuery({ ...accountQuery(), enabled });
}
