import { useState } from 'react';
import { checkout as copy } from '@/content/checkout';
import { ApiError } from '@/lib/api-client';
import { useRequest } from '@/lib/use-request';
import { getCouponQuote } from './api/get-coupon-quote';
import type { CheckoutHandOff } from './checkout-hand-off';

/**
 * The checkout's coupon: the code tried (from ?coupon= or the summary's field) and the server's
 * quote, which says whether it applies and what the plan then costs.
 */
export type CouponQuoteState = ReturnType<typeof useCouponQuote>;

export function useCouponQuote({ plan, coupon }: CheckoutHandOff, live: boolean) {
  // Undefined: the hand-off's (the prerendered page learns it only once it hydrates).
  const [triedCode, setCode] = useState<string | null | undefined>(undefined);
  const code = triedCode === undefined ? coupon : triedCode;
  const quote = useRequest(live && code !== null ? `${plan.id}:${code}` : null, (signal) =>
    getCouponQuote(code ?? '', plan.id, { signal }),
  );
  // A refused check says why (too many codes tried: wait a minute); anything else, that it failed.
  const failure = quote.isError ? (quote.error instanceof ApiError && quote.error.serverMessage) || copy.coupon.unavailable : null;
  return {
    code,
    setCode,
    quote,
    discount: quote.data?.valid ? quote.data : null,
    message: quote.data && !quote.data.valid ? quote.data.message : failure,
    // The intent waits for the quote of a code being checked, so it is created once, for the right amount.
    settled: code === null || !quote.isPending,
  };
}
