import { CURRENCY } from '@contracts/plans';
import { useCallback, useContext, useRef, useState } from 'react';
import { track } from '@/lib/analytics';
import { PageNavigation } from '@/lib/page-navigation';
import { buyOneClick } from './api/buy-one-click';
import { checkoutParty, successPath, type CheckoutHandOff } from './checkout-hand-off';
import { notifyCheckoutError, notifyProviderError } from './checkout-toasts';
import type { PaymentProvider } from './providers/provider-types';

/**
 * The one-click button: the server charges the card this browser saved, once per plan however
 * often it is asked. Paid: on to /success, as after a card payment. The bank asks for
 * authentication: the provider completes it in the page first (Stripe.js, or the sandbox's page).
 * Declined: the spec's 'Payment Failed' toast, and `onDeclined` shows the card form.
 */
export function useOneClickPayment(handOff: CheckoutHandOff, provider: PaymentProvider | null, onDeclined: () => void) {
  const goTo = useContext(PageNavigation);
  const [processing, setProcessing] = useState(false);
  const inFlight = useRef(false);
  const { plan, email, name } = handOff;

  const buy = useCallback(async () => {
    if (!email || !name || inFlight.current) return;
    inFlight.current = true;
    setProcessing(true);
    track({ name: 'InitiateCheckout', params: { plan: plan.name, value: plan.amount, currency: CURRENCY } });
    const stop = () => {
      inFlight.current = false;
      setProcessing(false);
    };
    try {
      const result = await buyOneClick({ ...checkoutParty(handOff, email, name), planId: plan.id });
      if (result.status === 'failed') {
        notifyProviderError('payment', result.message);
        stop();
        onDeclined();
        return;
      }
      const success = successPath(handOff, { payment_intent: result.paymentIntentId });
      if (result.status === 'requires_action' && result.clientSecret && provider) {
        const next = await provider.handleNextAction(result.clientSecret, new URL(success, window.location.origin).href);
        if (next.kind === 'redirecting') return;
        if (next.kind === 'error') {
          notifyProviderError('payment', next.message);
          stop();
          return;
        }
      }
      goTo(success, { replace: true });
    } catch (error) {
      notifyCheckoutError(error);
      stop();
    }
  }, [email, handOff, name, goTo, onDeclined, plan, provider]);

  return { processing, buy };
}
