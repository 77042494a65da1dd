import type { InviteeResponse } from '@contracts/invitations';
import { useRequest } from '@/lib/use-request';
import { takeEarlyValidation, validateToken } from './validate-token-early';

export type TokenValidation = { data: InviteeResponse | null; error: unknown };

/**
 * Asks the server about the token once per mount, never from a cache (a token can expire, so each
 * visit of /blackcard asks again) and without the query library: the page is an island of the
 * prerendered /blackcard. No token: nothing is asked. The answer renders as a transition, so the
 * page's content is built in slices that leave the main thread free.
 */
export function useValidateToken(token: string | null): TokenValidation {
  const check = useRequest(token, (signal) => takeEarlyValidation(token ?? '') ?? validateToken(token ?? '', signal), { transition: true });
  if (check.isError) return { data: null, error: check.error ?? new Error('Token check failed') };
  return { data: check.data ?? null, error: null };
}
