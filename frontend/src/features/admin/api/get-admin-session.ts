import type { AdminSessionResponse } from '@contracts/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';

export const adminSessionKey = ['api', 'admin', 'session'] as const satisfies ApiQueryKey;

/** The signed-in admin, or null when there is no session (a 401 here is an answer, not a failure). */
export function getAdminSession({ signal }: { signal?: AbortSignal } = {}): Promise<AdminSessionResponse | null> {
  return apiGet<AdminSessionResponse>(adminSessionKey, { signal, on401: 'null' });
}

export const adminSessionQuery = queryOptions({
  queryKey: adminSessionKey,
  queryFn: getAdminSession,
});

export function useAdminSession() {
  return useQuery(adminSessionQuery);
}
