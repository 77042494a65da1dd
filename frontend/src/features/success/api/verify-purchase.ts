import type { VerificationResult } from '@contracts/payments';
import { startTransition, useEffect, useState } from 'react';
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

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('The verification was left', 'AbortError'));
    });
  });

/** One try and up to VERIFICATION_RETRIES more, VERIFICATION_RETRY_DELAY_MS apart; the last failure is the answer. */
export async function verifyWithRetries(kind: VerificationKind, id: string, signal?: AbortSignal): Promise<VerificationResult> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await verifyPurchase(kind, id, { signal });
    } catch (error) {
      if (attempt >= VERIFICATION_RETRIES || signal?.aborted) throw error;
      await pause(VERIFICATION_RETRY_DELAY_MS, signal);
    }
  }
}

let early: { key: string; answer: Promise<VerificationResult> } | null = null;
const keyOf = (kind: VerificationKind, id: string) => `${kind}:${id}`;

/**
 * The prerendered /success asks for its verification as soon as its script runs, before React
 * hydrates the page (src/pages/success-islands.ts); the page's hook below adopts that answer once.
 */
export function verifyPurchaseEarly(verification: { kind: VerificationKind; id: string } | null): void {
  if (!verification) return;
  early = { key: keyOf(verification.kind, verification.id), answer: verifyWithRetries(verification.kind, verification.id) };
  early.answer.catch(() => undefined);
}

export type Verification = { status: 'pending' } | { status: 'error'; error: unknown } | { status: 'verified'; result: VerificationResult };

const PENDING: Verification = { status: 'pending' };

/**
 * The verification of one payment or subscription, with its retries, without the query library
 * (the page is an island of the prerendered /success, and the same screen in the SPA): asked once
 * per mount, or not at all without an id. The answer renders as a transition, in slices.
 */
export function useVerifyPurchase(verification: { kind: VerificationKind; id: string } | null): Verification {
  const kind = verification?.kind;
  const id = verification?.id;
  const [state, setState] = useState<{ key: string | null; verification: Verification }>({ key: null, verification: PENDING });
  const key = kind && id ? keyOf(kind, id) : null;
  useEffect(() => {
    if (!kind || !id) return;
    const controller = new AbortController();
    const requested = keyOf(kind, id);
    const answer = early?.key === requested ? early.answer : verifyWithRetries(kind, id, controller.signal);
    early = null;
    const settle = (next: Verification) => {
      if (!controller.signal.aborted) startTransition(() => setState({ key: requested, verification: next }));
    };
    answer.then(
      (result) => settle({ status: 'verified', result }),
      (error: unknown) => settle({ status: 'error', error }),
    );
    return () => controller.abort();
  }, [kind, id]);
  // An answer about another id (the page's query changed) does not count: this one is pending.
  return state.key === key ? state.verification : PENDING;
}
