import { ADMIN_CSRF_HEADER, type AdminSessionResponse } from '@contracts/admin';
import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';

/** The admin sign-in's query key: its cached answer holds the CSRF token, and clearing it sends the admin to sign in. */
const ADMIN_SESSION_KEY = ['api', 'admin', 'session'] as const;

export type Params = Record<string, string | number | undefined>;

export function withParams(path: string, params: Params): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** An admin read with query parameters; a non-OK answer is an ApiError like every other call. */
export async function dashboardGet<T>(path: string, params: Params, signal?: AbortSignal): Promise<T> {
  const response = await fetch(withParams(path, params), { credentials: 'include', headers: { Accept: 'application/json' }, signal });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

async function failure(response: Response): Promise<ApiError> {
  const text = await response.text();
  let message: string | null = null;
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    message = null;
  }
  return new ApiError(response.status, text, message, response.statusText);
}

export async function dashboardPost<T>(queryClient: QueryClient, path: string, body: unknown): Promise<T> {
  const csrfToken = queryClient.getQueryData<AdminSessionResponse | null>(ADMIN_SESSION_KEY)?.csrfToken ?? '';
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'include',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', [ADMIN_CSRF_HEADER]: csrfToken },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/**
 * Fetches an export and saves it under the server's file name. Through fetch rather than a link,
 * so a searched e-mail address stays out of the browser's history.
 */
export async function downloadFile(path: string, params: Params): Promise<void> {
  const response = await fetch(withParams(path, params), { credentials: 'include' });
  if (!response.ok) throw await failure(response);
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A 401 means the session ended: forgetting it makes the admin gate show the sign-in page. */
export function forgetSessionOn401(queryClient: QueryClient, error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 401) return false;
  queryClient.setQueryData(ADMIN_SESSION_KEY, null);
  return true;
}
