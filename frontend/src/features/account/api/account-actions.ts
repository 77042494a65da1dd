import {
  ACCOUNT_CSRF_HEADER,
  type AccountMembership,
  type AccountResponse,
  type BillingPortalResponse,
  type CardUpdateResponse,
} from '@contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { accountKey } from './get-account';

/** A state-changing account call: the session's CSRF token in its header, as the server requires. */
function accountPost<T>(csrfToken: string, path: string, body: unknown): Promise<T> {
  return apiRequest<T>('POST', path, { body, headers: { [ACCOUNT_CSRF_HEADER]: csrfToken } });
}

/** Puts a changed membership into the cached account, so the page shows it at once. */
function useMembershipUpdate() {
  const queryClient = useQueryClient();
  return (membership: AccountMembership) =>
    queryClient.setQueryData<AccountResponse | null>(accountKey, (current) =>
      current ? { ...current, memberships: current.memberships.map((m) => (m.orderId === membership.orderId ? membership : m)) } : current,
    );
}

export function useChangeMembership(csrfToken: string) {
  const update = useMembershipUpdate();
  return useMutation({
    mutationFn: ({ orderId, action }: { orderId: string; action: 'cancel' | 'resume' }) =>
      accountPost<AccountMembership>(csrfToken, `/api/account/${action}`, { orderId }),
    onSuccess: update,
  });
}

export function openBillingPortal(csrfToken: string, orderId: string): Promise<BillingPortalResponse> {
  return accountPost<BillingPortalResponse>(csrfToken, '/api/account/billing-portal', { orderId });
}

export function startCardUpdate(csrfToken: string, orderId: string): Promise<CardUpdateResponse> {
  return accountPost<CardUpdateResponse>(csrfToken, '/api/account/card/setup', { orderId });
}

export function useApplyCardUpdate(csrfToken: string) {
  const update = useMembershipUpdate();
  return useMutation({
    mutationFn: ({ orderId, setupIntentId }: { orderId: string; setupIntentId: string }) =>
      accountPost<AccountMembership>(csrfToken, '/api/account/card', { orderId, setupIntentId }),
    onSuccess: update,
  });
}

export function signOut(): Promise<void> {
  return apiRequest<void>('POST', '/api/account/logout');
}
