import type { VerificationResult } from '@contracts/payments';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';

/** The two verification endpoints (spec section 7): one per kind of id the checkout hands over. */
const VERIFY_ENDPOINTS = { subscription: 'verify-subscription', payment: 'verify-payment' } as const;

export type VerificationKind = keyof typeof VERIFY_ENDPOINTS;

/** Spec sections 7 and 9: verification is the one read that retries, 3 times, 1 s apart. */
export const VERIFICATION_RETRIES = 3;
export const VERIFICATION_RETRY_DELAY_MS = 1000;

export const verifyPurchaseKey = (kind: VerificationKind, id: string) => ['api', VERIFY_ENDPOINTS[kind], id] as const satisfies ApiQueryKey;

export function verifyPurchase(kind: VerificationKind, id: string, { signal }: { signal?: AbortSignal } = {}): Promise<VerificationResult> {
  return apiGet<VerificationResult>(verifyPurchaseKey(kind, id), { signal });
}

export const verifyPurchaseQuery = (kind: VerificationKind, id: string) =>
  queryOptions({
    queryKey: verifyPurchaseKey(kind, id),
    queryFn: ({ signal }) => verifyPurchase(kind, id, { signal }),
    retry: VERIFICATION_RETRIES,
    retryDelay: VERIFICATION_RETRY_DELAY_MS,
  });

export function useVerifyPurchase(kind: VerificationKind, id: string) {
  return useQuery(verifyPurchaseQuery(kind, id));
}
