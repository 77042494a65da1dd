import { useCallback, useState } from 'react';
import { useRequest } from '@/lib/use-request';
import { getOneClickOffer } from './api/one-click';
import type { CheckoutHandOff } from './checkout-hand-off';

/**
 * The browser that has just paid may buy a one-time plan with the card it saved, at the full
 * price: that offer is asked first (`eligible`: not with a coupon, which needs a checkout of its
 * own), and the card form (and its intent) only made when there is none or it is declined.
 */
export function useOneClickOffer({ plan, email, name }: CheckoutHandOff, eligible: boolean) {
  const [otherCard, setOtherCard] = useState(false);
  const useOtherCard = useCallback(() => setOtherCard(true), []);
  const asked = eligible && plan.kind === 'one-time' && Boolean(email && name) && !otherCard;
  const answer = useRequest(asked ? `${plan.id}:${email}` : null, (signal) => getOneClickOffer(plan.id, email ?? '', signal));
  return { offer: asked ? (answer.data?.offer ?? null) : null, pending: asked && answer.isPending, useOtherCard };
}

export type OneClickOfferState = ReturnType<typeof useOneClickOffer>;
