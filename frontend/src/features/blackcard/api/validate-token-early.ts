import type { InviteeResponse } from '@contracts/invitations';
import { apiGet } from '@/lib/api-client';

export function validateToken(token: string, signal?: AbortSignal): Promise<InviteeResponse> {
  return apiGet<InviteeResponse>(['api', 'validate-token', token], { signal });
}

let early: { token: string; answer: Promise<InviteeResponse> } | null = null;

/**
 * The prerendered /blackcard asks about its query token as soon as its entry runs, while React and
 * the page's islands are still on their way (src/pages/blackcard-client.ts): this module imports
 * nothing of React, so the request does not wait for it. The access check adopts that answer once.
 */
export function validateTokenEarly(token: string | null): void {
  if (!token) return;
  early = { token, answer: validateToken(token) };
  early.answer.catch(() => undefined);
}

/** The early answer for `token`, at most once; null when none was asked for it. */
export function takeEarlyValidation(token: string): Promise<InviteeResponse> | null {
  const answer = early?.token === token ? early.answer : null;
  early = null;
  return answer;
}
