import { CURRENCY } from '@contracts/plans';
import { useCallback, useEffect, useRef, useState } from 'react';
import { checkout as copy } from '@/content/checkout';
import { track } from '@/lib/analytics';
import { createPaymentIntent } from './api/create-payment-intent';
import { createSetupIntent } from './api/create-setup-intent';
import { checkoutParty, type CheckoutHandOff } from './checkout-hand-off';
import { notifyInitFailure } from './checkout-toasts';
import type { CardConfirmer } from './providers/provider-types';

export interface CheckoutIntent {
  clientSecret: string | null;
  failed: boolean;
  retry: () => void;
  /** The card form's confirmer once the form of this intent reported ready; null until then. */
  confirmer: CardConfirmer | null;
  /** What the card form calls when it is ready. */
  onReady: (confirmer: CardConfirmer) => void;
}

/**
 * Creates the intent the card element mounts on (spec section 4): a setup intent for subscription
 * plans, a payment intent for one-time plans. Starts once per checkout visit, and only with an
 * e-mail and a name: without them the server could not take the order anyway. A coupon the server
 * accepted goes with it (the server charges the discounted amount), and so does the add-on when
 * ticked (the server adds its catalogue price); applying or removing either creates the intent
 * again for the new amount.
 */
export function useCheckoutIntent(
  handOff: CheckoutHandOff,
  email: string | null,
  name: string | null,
  enabled: boolean,
  coupon: string | null,
  bump: boolean,
): CheckoutIntent {
  // The latest attempt's outcome; an answer to an attempt superseded (a coupon applied meanwhile) is dropped.
  const [attempt, setAttempt] = useState<{ id: number; clientSecret: string | null; failed: boolean } | null>(null);
  const attempts = useRef(0);
  const tracked = useRef(false);
  const startedFor = useRef<string | undefined>(undefined);
  const { plan } = handOff;

  const create = useCallback(() => {
    if (!email || !name) return;
    const id = ++attempts.current;
    setAttempt({ id, clientSecret: null, failed: false });
    const party = { ...checkoutParty(handOff, email, name), ...(coupon ? { coupon } : {}), ...(bump ? { bump } : {}) };
    const subscription = plan.kind === 'subscription';
    const request = subscription
      ? createSetupIntent({ ...party, planId: plan.id })
      : createPaymentIntent({ ...party, amount: plan.amount, plan: plan.name });
    request.then(
      ({ clientSecret }) => {
        if (attempts.current === id) setAttempt({ id, clientSecret, failed: false });
      },
      (error: unknown) => {
        if (attempts.current !== id) return;
        setAttempt({ id, clientSecret: null, failed: true });
        notifyInitFailure(subscription ? copy.toasts.setupError : copy.toasts.paymentIntentError, error);
      },
    );
  }, [bump, coupon, email, handOff, name, plan]);

  const canStart = enabled && Boolean(email && name);
  useEffect(() => {
    // One intent per coupon and add-on choice: the server charges what the intent was made for.
    const terms = `${coupon ?? ''}|${bump}`;
    if (!canStart || startedFor.current === terms) return;
    startedFor.current = terms;
    if (!tracked.current) {
      tracked.current = true;
      track({ name: 'InitiateCheckout', params: { plan: plan.name, value: plan.amount, currency: CURRENCY } });
    }
    create();
  }, [bump, canStart, coupon, create, plan]);

  const clientSecret = attempt?.clientSecret ?? null;
  // The card form of each intent reports ready with its confirmer; a new intent (a coupon applied
  // or removed) mounts a new form, and the old form's confirmer no longer counts.
  const [ready, setReady] = useState<{ clientSecret: string | null; confirmer: CardConfirmer } | null>(null);
  const onReady = useCallback((confirmer: CardConfirmer) => setReady({ clientSecret, confirmer }), [clientSecret]);
  return {
    clientSecret,
    failed: attempt?.failed ?? false,
    retry: create,
    confirmer: ready && ready.clientSecret === clientSecret ? ready.confirmer : null,
    onReady,
  };
}
