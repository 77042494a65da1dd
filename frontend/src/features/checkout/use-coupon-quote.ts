import { useState } from 'react';
import { useRequest } from '@/lib/use-request';
import { getCouponQuote } from './api/get-coupon-quote';
import type { CheckoutHandOff } from './checkout-hand-off';

/**
 * The code tried (from ?coupon= or the summary's field) and the server's quote, which says whether
 * it applies and what the plan then costs.
 */
export function useCouponQuote({ plan, coupon }: CheckoutHandOff, live: boolean) {
  // Undefined: the hand-off's (the prerendered page learns it only once it hydrates).
  const [triedCode, setCode] = useState<string | null | undefined>(undefined);
  const code = triedCode === undefined ? coupon : triedCode;
  const quote = useRequest(live && code !== null ? `${plan.id}:${code}` : null, (signal) => getCouponQuote(code ?? '', plan.id, signal));
  return { code, setCode, quote, discount: quote.data?.valid ? quote.data : null };
}

export type CouponQuoteState = ReturnType<typeof useCouponQuote>;
