import { ADMIN_CSRF_HEADER, type AdminSessionResponse } from '@contracts/admin';
import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';
import { adminSessionKey } from './get-admin-session';

function serverMessageOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { message?: unknown } | null;
    return typeof parsed?.message === 'string' && parsed.message.trim() ? parsed.message : null;
  } catch {
    return null;
  }
}

/**
 * A mutating admin call: JSON body, credentials included, and the session's CSRF token in its
 * header. Errors follow the spec's general rule (ApiError), like every other call.
 */
export async function adminMutation<T>(
  queryClient: QueryClient,
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const csrfToken = queryClient.getQueryData<AdminSessionResponse | null>(adminSessionKey)?.csrfToken ?? '';
  const headers: Record<string, string> = { Accept: 'application/json', [ADMIN_CSRF_HEADER]: csrfToken };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, text, serverMessageOf(text), response.statusText);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A 401 means the session ended meanwhile; forgetting it sends the admin to the sign-in page. */
export function forgetSessionOn401(queryClient: QueryClient, error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 401) return false;
  queryClient.setQueryData(adminSessionKey, null);
  return true;
}
