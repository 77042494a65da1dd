import type { ApiErrorBody } from '@contracts/api-types';

/**
 * A non-OK answer. `message` follows the spec's general rule ('{status}: {body or status text}');
 * `serverMessage` is the human-readable `message` of an ApiErrorBody, when the body is one.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly body: string,
    readonly serverMessage: string | null,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
  }
}

function parseServerMessage(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as Partial<ApiErrorBody> | null;
    return typeof parsed?.message === 'string' && parsed.message.trim() ? parsed.message : null;
  } catch {
    return null;
  }
}

async function request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, text, parseServerMessage(text), response.statusText);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A query key such as ['api', 'testimonials', 'featured'] names the path /api/testimonials/featured. */
export type ApiQueryKey = readonly [string, ...(string | number)[]];

export function pathFromKey(key: ApiQueryKey): string {
  return `/${key.map((segment) => encodeURIComponent(String(segment))).join('/')}`;
}

interface GetOptions {
  signal?: AbortSignal;
}

/** A read: GET to the key's path. A 401 fails unless the read opts into yielding null. */
export function apiGet<T>(key: ApiQueryKey, options?: GetOptions & { on401?: 'fail' }): Promise<T>;
export function apiGet<T>(key: ApiQueryKey, options: GetOptions & { on401: 'null' }): Promise<T | null>;
export async function apiGet<T>(
  key: ApiQueryKey,
  { signal, on401 = 'fail' }: GetOptions & { on401?: 'fail' | 'null' } = {},
): Promise<T | null> {
  try {
    return await request<T>('GET', pathFromKey(key), undefined, signal);
  } catch (error) {
    if (on401 === 'null' && error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function apiPost<T>(path: string, body: unknown): Promise<T> {
  return request<T>('POST', path, body);
}
