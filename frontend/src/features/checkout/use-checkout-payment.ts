import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import { checkout as copy } from '@/content/checkout';
import { PageNavigation, type GoTo } from '@/lib/page-navigation';
import { confirmSubscription } from './api/confirm-subscription';
import {
  checkoutParty,
  checkoutPath,
  paymentReturnUrl,
  setupReturnUrl,
  successPath,
  type CheckoutHandOff,
  type SetupReturn,
} from './checkout-hand-off';
import {
  notifyCheckoutError,
  notifyMissingInformation,
  notifyPaymentIncomplete,
  notifyProviderError,
  notifySubscriptionFailure,
} from './checkout-toasts';
import type { CardConfirmer, PaymentProvider } from './providers/provider-types';

const SUCCEEDED = 'succeeded';

/**
 * Creates the subscription of a card set up (confirm-subscription), then goes on to /success.
 * Resolves false, the toast shown, when the buyer has to try again.
 */
async function finishSubscription(
  handOff: CheckoutHandOff,
  provider: PaymentProvider | null,
  goTo: GoTo,
  setupIntentId: string,
  email: string,
  name: string,
): Promise<boolean> {
  const { plan } = handOff;
  try {
    const { subscriptionId, clientSecret } = await confirmSubscription({
      ...checkoutParty(handOff, email, name),
      setupIntentId,
      amount: plan.amount,
      plan: plan.name,
    });
    const success = successPath(handOff, { subscription_id: subscriptionId });
    // The bank asks the buyer to authenticate the first payment: the provider shows its
    // challenge (Stripe's modal, or the sandbox's page, which returns to /success itself).
    if (clientSecret && provider) {
      const result = await provider.handleNextAction(clientSecret, new URL(success, window.location.origin).href);
      if (result.kind === 'redirecting') return true;
      if (result.kind === 'error') {
        notifyProviderError('payment', result.message);
        return false;
      }
    }
    // Whatever the first payment's outcome, /success verifies the subscription and says it.
    goTo(success, { replace: true });
  } catch (error) {
    notifySubscriptionFailure(error);
    return false;
  }
  return true;
}

/**
 * The pay button's flows (spec section 4): subscriptions confirm the setup intent, then
 * confirm-subscription; one-time plans confirm the payment intent. Also finishes a subscription
 * when the buyer comes back from authenticating the card (setup_intent in the query string).
 */
export function useCheckoutPayment(
  handOff: CheckoutHandOff,
  provider: PaymentProvider | null,
  confirmer: CardConfirmer | null,
  setupReturn: SetupReturn | null,
) {
  const goTo = useContext(PageNavigation);
  // Back from authenticating, the screen is busy finishing the subscription until told otherwise
  // (on the prerendered page the return is known only once it hydrates).
  const [processingState, setProcessing] = useState<boolean | null>(null);
  const processing = processingState ?? setupReturn !== null;
  const { plan, email, name } = handOff;

  const pay = useCallback(async () => {
    if (!email || !name) {
      notifyMissingInformation();
      return;
    }
    if (!confirmer || processing) return;
    setProcessing(true);
    const subscription = plan.kind === 'subscription';
    try {
      const result = await (subscription
        ? confirmer.confirmSetup(setupReturnUrl(handOff))
        : confirmer.confirmPayment(paymentReturnUrl(handOff)));
      if (result.kind === 'redirecting') return;
      if (result.kind === 'error') {
        notifyProviderError(subscription ? 'setup' : 'payment', result.message);
      } else if (result.status !== SUCCEEDED) {
        notifyPaymentIncomplete();
      } else if (!subscription) {
        goTo(successPath(handOff, { payment_intent: result.id }), { replace: true });
        return;
      } else if (await finishSubscription(handOff, provider, goTo, result.id, email, name)) {
        return;
      }
    } catch (error) {
      notifyCheckoutError(error);
    }
    setProcessing(false);
  }, [confirmer, email, handOff, name, goTo, plan, processing, provider]);

  // Back from the provider's authentication step: the setup intent is confirmed (or not) already.
  const resumed = useRef(false);
  useEffect(() => {
    // Waits for the provider's code: the first payment may still ask for authentication.
    if (!setupReturn || resumed.current || !provider) return;
    resumed.current = true;
    const restart = () => {
      goTo(checkoutPath(handOff), { replace: true });
    };
    if (!email || !name) {
      notifyMissingInformation();
      restart();
    } else if (setupReturn.redirectStatus !== SUCCEEDED) {
      notifyProviderError('setup', copy.toasts.setupConfirmFailed.authenticationFailed);
      restart();
    } else {
      void finishSubscription(handOff, provider, goTo, setupReturn.setupIntentId, email, name).then((done) => {
        if (done) return;
        setProcessing(false);
        restart();
      });
    }
  }, [email, handOff, name, goTo, provider, setupReturn]);

  return { processing, pay };
}
