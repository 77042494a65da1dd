import type { InviteeResponse } from '@contracts/invitations';
import { startTransition, useEffect, useState } from 'react';
import { apiGet } from '@/lib/api-client';

export function validateToken(token: string, signal?: AbortSignal): Promise<InviteeResponse> {
  return apiGet<InviteeResponse>(['api', 'validate-token', token], { signal });
}

let early: { token: string; answer: Promise<InviteeResponse> } | null = null;

/**
 * The prerendered /blackcard asks about its query token as soon as its script runs, before React
 * hydrates the page (src/pages/blackcard-islands.ts); the check below adopts that answer once.
 */
export function validateTokenEarly(token: string | null): void {
  if (!token) return;
  early = { token, answer: validateToken(token) };
  early.answer.catch(() => undefined);
}

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
    const answer = early?.token === token ? early.answer : validateToken(token, controller.signal);
    early = null;
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
