import type { InviteeResponse } from '@contracts/invitations';
import { useEffect, useState } from 'react';
import { apiGet } from '@/lib/api-client';

export function validateToken(token: string, signal?: AbortSignal): Promise<InviteeResponse> {
  return apiGet<InviteeResponse>(['api', 'validate-token', token], { signal });
}

export type TokenValidation = { data: InviteeResponse | null; error: unknown };

/**
 * Asks the server about the token once per mount, never from a cache (a token can expire, so each
 * visit of /blackcard asks again) and without the query library: the page is an island of the
 * prerendered /blackcard. No token: nothing is asked.
 */
export function useValidateToken(token: string | null): TokenValidation {
  const [result, setResult] = useState<TokenValidation>({ data: null, error: null });
  useEffect(() => {
    if (token === null) return;
    const controller = new AbortController();
    validateToken(token, controller.signal).then(
      (data) => setResult({ data, error: null }),
      (error: unknown) => {
        if (!controller.signal.aborted) setResult({ data: null, error: error ?? new Error('Token check failed') });
      },
    );
    return () => controller.abort();
  }, [token]);
  return result;
}
