import type { InviteeResponse } from '@contracts/invitations';
import { startTransition, useEffect, useState } from 'react';
import { takeEarlyValidation, validateToken } from './validate-token-early';

export type TokenValidation = { data: InviteeResponse | null; error: unknown };

/**
 * Asks the server about the token once per mount, never from a cache (a token can expire, so each
 * visit of /blackcard asks again) and without the query library: the page is an island of the
 * prerendered /blackcard. No token: nothing is asked. The answer renders as a transition, so the
 * page's content is built in slices that leave the main thread free.
 */
export function useValidateToken(token: string | null): TokenValidation {
  const [result, setResult] = useState<TokenValidation>({ data: null, error: null });
  useEffect(() => {
    if (token === null) return;
    const controller = new AbortController();
    const answer = takeEarlyValidation(token) ?? validateToken(token, controller.signal);
    const settle = (next: TokenValidation) => {
      if (!controller.signal.aborted) startTransition(() => setResult(next));
    };
    answer.then(
      (data) => settle({ data, error: null }),
      (error: unknown) => settle({ data: null, error: error ?? new Error('Token check failed') }),
    );
    return () => controller.abort();
  }, [token]);
  return result;
}
