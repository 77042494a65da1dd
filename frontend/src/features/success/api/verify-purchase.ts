import type { VerificationResult } from '@contracts/payments';
import { apiGet, type ApiQueryKey } from '@/lib/api-client';
import { EarlyRequest } from '@/lib/early-request';
import { useRequest } from '@/lib/use-request';

/** The two verification endpoints (spec section 7): one per kind of id the checkout hands over. */
const VERIFY_ENDPOINTS = { subscription: 'verify-subscription', payment: 'verify-payment' } as const;

export type VerificationKind = keyof typeof VERIFY_ENDPOINTS;

/** Spec sections 7 and 9: verification is the one read that retries, 3 times, 1 s apart. */
const VERIFICATION_RETRIES = 3;
const VERIFICATION_RETRY_DELAY_MS = 1000;

const verifyPurchaseKey = (kind: VerificationKind, id: string) => ['api', VERIFY_ENDPOINTS[kind], id] as const satisfies ApiQueryKey;

function verifyPurchase(kind: VerificationKind, id: string, { signal }: { signal?: AbortSignal } = {}): Promise<VerificationResult> {
  return apiGet<VerificationResult>(verifyPurchaseKey(kind, id), { signal });
}

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('The verification was left', 'AbortError'));
    });
  });

/** One try and up to VERIFICATION_RETRIES more, VERIFICATION_RETRY_DELAY_MS apart; the last failure is the answer. */
async function verifyWithRetries(kind: VerificationKind, id: string, signal?: AbortSignal): Promise<VerificationResult> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await verifyPurchase(kind, id, { signal });
    } catch (error) {
      if (attempt >= VERIFICATION_RETRIES || signal?.aborted) throw error;
      await pause(VERIFICATION_RETRY_DELAY_MS, signal);
    }
  }
}

const early = new EarlyRequest<VerificationResult>();
const keyOf = (kind: VerificationKind, id: string) => `${kind}:${id}`;

/**
 * The prerendered /success asks for its verification as soon as its script runs, before React
 * hydrates the page (src/pages/success.start.ts); the page's hook below adopts that answer once.
 */
export function verifyPurchaseEarly(verification: { kind: VerificationKind; id: string } | null): void {
  if (verification) early.start(keyOf(verification.kind, verification.id), verifyWithRetries(verification.kind, verification.id));
}

export type Verification = { status: 'pending' } | { status: 'error'; error: unknown } | { status: 'verified'; result: VerificationResult };

/**
 * The verification of one payment or subscription, with its retries, without the query library
 * (the page is an island of the prerendered /success, and the same screen in the SPA): asked once
 * per mount, or not at all without an id; an answer about another id is no answer for this one.
 * The answer renders as a transition, in slices.
 */
export function useVerifyPurchase(verification: { kind: VerificationKind; id: string } | null): Verification {
  const key = verification ? keyOf(verification.kind, verification.id) : null;
  const check = useRequest(key, (signal) => early.take(key ?? '') ?? verifyWithRetries(verification!.kind, verification!.id, signal), {
    transition: true,
  });
  if (check.isError) return { status: 'error', error: check.error };
  return check.isSuccess && check.data ? { status: 'verified', result: check.data } : { status: 'pending' };
}
