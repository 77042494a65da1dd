import type { AdminSessionResponse } from '@contracts/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminSessionKey } from '@/lib/admin-session';
import { apiGet } from '@/lib/api-client';

/** The signed-in admin, or null when there is no session (a 401 here is an answer, not a failure). */
function getAdminSession({ signal }: { signal?: AbortSignal } = {}): Promise<AdminSessionResponse | null> {
  return apiGet<AdminSessionResponse>(adminSessionKey, { signal, on401: 'null' });
}

const adminSessionQuery = queryOptions({
  queryKey: adminSessionKey,
  queryFn: getAdminSession,
});

export function useAdminSession() {
  return useQuery(adminSessionQuery);
}
