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

/** Every call goes through here: credentials included, and a non-OK answer thrown as an ApiError. */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, { ...init, credentials: 'include' });
  if (!response.ok) {
    const text = await response.text();
    throw new ApiError(response.status, text, parseServerMessage(text), response.statusText);
  }
  return response;
}

export interface ApiRequestOptions {
  body?: unknown;
  /** Added to the JSON Accept and Content-Type headers (the admin calls' CSRF token). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A JSON call: the body sent as JSON, the answer (if any) parsed as JSON. */
export async function apiRequest<T>(method: string, path: string, { body, headers, signal }: ApiRequestOptions = {}): Promise<T> {
  const response = await apiFetch(path, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export type QueryParams = Record<string, string | number | undefined>;

/** The path with the given parameters as its query string; undefined and empty values are left out. */
export function withParams(path: string, params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** A query key such as ['api', 'testimonials', 'featured'] names the path /api/testimonials/featured. */
export type ApiQueryKey = readonly [string, ...(string | number)[]];

function pathFromKey(key: ApiQueryKey): string {
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
    return await apiRequest<T>('GET', pathFromKey(key), { signal });
  } catch (error) {
    if (on401 === 'null' && error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function apiPost<T>(path: string, body: unknown): Promise<T> {
  return apiRequest<T>('POST', path, { body });
}
