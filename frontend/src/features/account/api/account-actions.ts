import { ACCOUNT_CSRF_HEADER, type AccountMembership, type BillingPortalResponse, type CardUpdateResponse } from '@contracts/account';
import type { CancellationAnswer, PauseRequest, SaveOfferRequest } from '@contracts/cancellation';
import { apiRequest } from '@/lib/api-client';

/** A state-changing account call: the session's CSRF token in its header, as the server requires. */
function accountPost<T>(csrfToken: string, path: string, body: unknown): Promise<T> {
  return apiRequest<T>('POST', path, { body, headers: { [ACCOUNT_CSRF_HEADER]: csrfToken } });
}

/** Resumes a membership set to end with its period; the answer is the membership as it now stands. */
export function resumeMembership(csrfToken: string, orderId: string): Promise<AccountMembership> {
  return accountPost<AccountMembership>(csrfToken, '/api/account/resume', { orderId });
}

/** Cancels at period end, with the survey's answer if the member gave one. */
export function cancelMembership(csrfToken: string, answer: CancellationAnswer): Promise<AccountMembership> {
  return accountPost<AccountMembership>(csrfToken, '/api/account/cancel', answer);
}

/** The cancellation flow's pause, taken instead of cancelling. */
export function pauseMembership(csrfToken: string, request: PauseRequest): Promise<AccountMembership> {
  return accountPost<AccountMembership>(csrfToken, '/api/account/pause', request);
}

/** The cancellation flow's save offer (a discount on the next renewal), taken instead of cancelling. */
export function takeSaveOffer(csrfToken: string, request: SaveOfferRequest): Promise<AccountMembership> {
  return accountPost<AccountMembership>(csrfToken, '/api/account/save-offer', request);
}

export function openBillingPortal(csrfToken: string, orderId: string): Promise<BillingPortalResponse> {
  return accountPost<BillingPortalResponse>(csrfToken, '/api/account/billing-portal', { orderId });
}

export function startCardUpdate(csrfToken: string, orderId: string): Promise<CardUpdateResponse> {
  return accountPost<CardUpdateResponse>(csrfToken, '/api/account/card/setup', { orderId });
}

/** Puts the confirmed card setup on the membership's subscription; the answer is the membership as it now stands. */
export function applyCardUpdate(csrfToken: string, orderId: string, setupIntentId: string): Promise<AccountMembership> {
  return accountPost<AccountMembership>(csrfToken, '/api/account/card', { orderId, setupIntentId });
}

export function signOut(): Promise<void> {
  return apiRequest<void>('POST', '/api/account/logout');
}
