import { CURRENCY } from '@contracts/plans';
import { useCallback, useEffect, useRef } from 'react';
import { checkout as copy } from '@/content/checkout';
import { track } from '@/lib/analytics';
import { useCreatePaymentIntent } from './api/create-payment-intent';
import { useCreateSetupIntent } from './api/create-setup-intent';
import { checkoutParty, type CheckoutHandOff } from './checkout-hand-off';
import { notifyInitFailure } from './checkout-toasts';

export interface CheckoutIntent {
  clientSecret: string | null;
  /** True from the moment checkout starts until the intent exists or creating it failed. */
  initializing: boolean;
  failed: boolean;
  retry: () => void;
}

/**
 * Creates the intent the card element mounts on (spec section 4): a setup intent for subscription
 * plans, a payment intent for one-time plans. Starts once per checkout visit, and only with an
 * e-mail and a name: without them the server could not take the order anyway. A coupon the server
 * accepted goes with it (the server charges the discounted amount); applying or removing one
 * creates the intent again for the new amount.
 */
export function useCheckoutIntent(
  handOff: CheckoutHandOff,
  email: string | null,
  name: string | null,
  enabled: boolean,
  coupon: string | null = null,
): CheckoutIntent {
  const setup = useCreateSetupIntent();
  const payment = useCreatePaymentIntent();
  const { mutate: createSetup } = setup;
  const { mutate: createPayment } = payment;
  const tracked = useRef(false);
  const startedFor = useRef<string | null | undefined>(undefined);
  const { plan } = handOff;

  const create = useCallback(() => {
    if (!email || !name) return;
    const party = { ...checkoutParty(handOff, email, name), ...(coupon ? { coupon } : {}) };
    if (plan.kind === 'subscription') {
      createSetup({ ...party, planId: plan.id }, { onError: (error) => notifyInitFailure(copy.toasts.setupError, error) });
    } else {
      createPayment(
        { ...party, amount: plan.amount, plan: plan.name },
        { onError: (error) => notifyInitFailure(copy.toasts.paymentIntentError, error) },
      );
    }
  }, [coupon, createPayment, createSetup, email, handOff, name, plan]);

  const canStart = enabled && Boolean(email && name);
  useEffect(() => {
    if (!canStart || startedFor.current === coupon) return;
    startedFor.current = coupon;
    if (!tracked.current) {
      tracked.current = true;
      track({ name: 'InitiateCheckout', params: { plan: plan.name, value: plan.amount, currency: CURRENCY } });
    }
    create();
  }, [canStart, coupon, create, plan]);

  const mutation = plan.kind === 'subscription' ? setup : payment;
  return {
    clientSecret: mutation.data?.clientSecret ?? null,
    initializing: canStart && (mutation.isIdle || mutation.isPending),
    failed: mutation.isError,
    retry: create,
  };
}
