import { ACCOUNT_CSRF_HEADER, type AccountMembership, type BillingPortalResponse, type CardUpdateResponse } from '@contracts/account';
import { apiRequest } from '@/lib/api-client';

/** A state-changing account call: the session's CSRF token in its header, as the server requires. */
function accountPost<T>(csrfToken: string, path: string, body: unknown): Promise<T> {
  return apiRequest<T>('POST', path, { body, headers: { [ACCOUNT_CSRF_HEADER]: csrfToken } });
}

/** Cancels at period end, or resumes, a membership; the answer is the membership as it now stands. */
export function changeMembership(csrfToken: string, orderId: string, action: 'cancel' | 'resume'): Promise<AccountMembership> {
  return accountPost<AccountMembership>(csrfToken, `/api/account/${action}`, { orderId });
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
