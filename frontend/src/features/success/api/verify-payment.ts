import type { VerificationResult } from '@contracts/payments';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';
import { VERIFICATION_RETRIES, VERIFICATION_RETRY_DELAY_MS } from './verification-retry';

export const verifyPaymentKey = (paymentIntentId: string) => ['api', 'verify-payment', paymentIntentId] as const satisfies ApiQueryKey;

export function verifyPayment(paymentIntentId: string, { signal }: { signal?: AbortSignal } = {}): Promise<VerificationResult> {
  return apiGet<VerificationResult>(verifyPaymentKey(paymentIntentId), { signal });
}

export const verifyPaymentQuery = (paymentIntentId: string) =>
  queryOptions({
    queryKey: verifyPaymentKey(paymentIntentId),
    queryFn: ({ signal }) => verifyPayment(paymentIntentId, { signal }),
    retry: VERIFICATION_RETRIES,
    retryDelay: VERIFICATION_RETRY_DELAY_MS,
  });

export function useVerifyPayment(paymentIntentId: string, enabled = true) {
  return useQuery({ ...verifyPaymentQuery(paymentIntentId), enabled });
}
