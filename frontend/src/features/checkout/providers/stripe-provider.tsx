import type { Stripe, StripeElements } from '@stripe/stripe-js';
// The pure entry injects js.stripe.com only when loadStripe is called, not when this module is imported.
import { loadStripe } from '@stripe/stripe-js/pure';
import { useEffect, useRef } from 'react';
import type { CardConfirmer, ConfirmResult, PaymentFormProps, PaymentProvider } from './provider-types';

function confirmerFor(stripe: Stripe, elements: StripeElements): CardConfirmer {
  return {
    async confirmSetup(returnUrl) {
      const result = await stripe.confirmSetup({ elements, confirmParams: { return_url: returnUrl }, redirect: 'if_required' });
      if (result.error) return { kind: 'error', message: result.error.message ?? null };
      return { kind: 'intent', id: result.setupIntent.id, status: result.setupIntent.status };
    },
    async confirmPayment(returnUrl) {
      const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl }, redirect: 'if_required' });
      if (result.error) return { kind: 'error', message: result.error.message ?? null };
      return { kind: 'intent', id: result.paymentIntent.id, status: result.paymentIntent.status };
    },
  };
}

/**
 * Loads Stripe.js (rejecting when its script cannot load) and returns the Payment Element provider.
 * Stripe.js is driven directly rather than through @stripe/react-stripe-js, whose wrapper would
 * put the Stripe deployment's /checkout over the page JavaScript budget.
 */
export async function createStripeProvider(publishableKey: string): Promise<PaymentProvider> {
  const stripe = await loadStripe(publishableKey);
  if (!stripe) throw new Error('Stripe.js is unavailable');
  const loaded: Stripe = stripe;

  function StripePaymentForm({ clientSecret, onReady }: PaymentFormProps) {
    const container = useRef<HTMLDivElement>(null);
    // The latest callback, so a re-render of the page does not rebuild the card entry.
    const ready = useRef(onReady);
    useEffect(() => {
      ready.current = onReady;
    }, [onReady]);
    useEffect(() => {
      if (!container.current) return;
      // An Elements group reads its client secret once: a new intent needs a new group.
      const elements = loaded.elements({ clientSecret, appearance: { theme: 'stripe' } });
      const paymentElement = elements.create('payment', { layout: 'tabs' });
      paymentElement.on('ready', () => ready.current(confirmerFor(loaded, elements)));
      paymentElement.mount(container.current);
      return () => paymentElement.destroy();
    }, [clientSecret]);
    return <div ref={container} />;
  }

  async function handleNextAction(clientSecret: string): Promise<ConfirmResult> {
    try {
      const result = await loaded.handleNextAction({ clientSecret });
      if (result.error) return { kind: 'error', message: result.error.message ?? null };
      const intent = result.paymentIntent ?? result.setupIntent;
      return { kind: 'intent', id: intent.id, status: intent.status };
    } catch {
      // handleNextAction throws for an intent no longer waiting (completed in an earlier visit):
      // its current state is the answer.
      const { paymentIntent, error } = await loaded.retrievePaymentIntent(clientSecret);
      if (!paymentIntent) return { kind: 'error', message: error?.message ?? null };
      return { kind: 'intent', id: paymentIntent.id, status: paymentIntent.status };
    }
  }
  return { name: 'stripe', PaymentForm: StripePaymentForm, handleNextAction };
}
