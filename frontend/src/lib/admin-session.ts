import { ADMIN_CSRF_HEADER, type AdminSessionResponse } from '@contracts/admin';
import type { QueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest, type ApiQueryKey } from './api-client';

/** The admin sign-in's query key: its cached answer holds the CSRF token, and clearing it sends the admin to sign in. */
export const adminSessionKey = ['api', 'admin', 'session'] as const satisfies ApiQueryKey;

/**
 * A mutating admin call: JSON body, credentials included, and the session's CSRF token in its
 * header. Errors follow the spec's general rule (ApiError), like every other call.
 */
export function adminRequest<T>(queryClient: QueryClient, method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const csrfToken = queryClient.getQueryData<AdminSessionResponse | null>(adminSessionKey)?.csrfToken ?? '';
  return apiRequest<T>(method, path, { body, headers: { [ADMIN_CSRF_HEADER]: csrfToken } });
}

/** A 401 means the session ended meanwhile: forgetting it makes the admin gate show the sign-in page. */
export function forgetSessionOn401(queryClient: QueryClient, error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 401) return false;
  queryClient.setQueryData(adminSessionKey, null);
  return true;
}
