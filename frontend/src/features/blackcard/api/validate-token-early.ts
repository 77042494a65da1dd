import type { InviteeResponse } from '@contracts/invitations';
import { apiGet } from '@/lib/api-client';
import { EarlyRequest } from '@/lib/early-request';

export function validateToken(token: string, signal?: AbortSignal): Promise<InviteeResponse> {
  return apiGet<InviteeResponse>(['api', 'validate-token', token], { signal });
}

const early = new EarlyRequest<InviteeResponse>();

/**
 * The prerendered /blackcard asks about its query token as soon as its entry runs, while React and
 * the page's islands are still on their way (src/pages/blackcard.load.ts): this module imports
 * nothing of React, so the request does not wait for it. The access check adopts that answer once.
 */
export function validateTokenEarly(token: string | null): void {
  if (token) early.start(token, validateToken(token));
}

/** The early answer for `token`, at most once; null when none was asked for it. */
export function takeEarlyValidation(token: string): Promise<InviteeResponse> | null {
  return early.take(token);
}
