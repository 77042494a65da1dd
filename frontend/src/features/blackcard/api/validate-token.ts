import type { InviteeResponse } from '@contracts/invitations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client';

export function validateToken(token: string, signal?: AbortSignal): Promise<InviteeResponse> {
  return apiGet<InviteeResponse>(['api', 'validate-token', token], { signal });
}

/** Never served from cache: a token can expire, so each visit of /blackcard asks the server again. */
export function validateTokenQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['api', 'validate-token', token] as const,
    queryFn: ({ signal }) => validateToken(token, signal),
    gcTime: 0,
  });
}

export function useValidateToken(token: string | null) {
  return useQuery({ ...validateTokenQueryOptions(token ?? ''), enabled: token !== null });
}
