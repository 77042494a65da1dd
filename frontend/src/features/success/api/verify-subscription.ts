import type { VerificationResult } from '@contracts/payments';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';
import { VERIFICATION_RETRIES, VERIFICATION_RETRY_DELAY_MS } from './verification-retry';

export const verifySubscriptionKey = (subscriptionId: string) =>
  ['api', 'verify-subscription', subscriptionId] as const satisfies ApiQueryKey;

export function verifySubscription(subscriptionId: string, { signal }: { signal?: AbortSignal } = {}): Promise<VerificationResult> {
  return apiGet<VerificationResult>(verifySubscriptionKey(subscriptionId), { signal });
}

export const verifySubscriptionQuery = (subscriptionId: string) =>
  queryOptions({
    queryKey: verifySubscriptionKey(subscriptionId),
    queryFn: ({ signal }) => verifySubscription(subscriptionId, { signal }),
    retry: VERIFICATION_RETRIES,
    retryDelay: VERIFICATION_RETRY_DELAY_MS,
  });

export function useVerifySubscription(subscriptionId: string, enabled = true) {
  return useQuery({ ...verifySubscriptionQuery(subscriptionId), enabled });
}
