import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeElements } from '@stripe/stripe-js';
// The pure entry injects js.stripe.com only when loadStripe is called, not when this module is imported.
import { loadStripe } from '@stripe/stripe-js/pure';
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

function StripeCardEntry({ onReady }: Pick<PaymentFormProps, 'onReady'>) {
  const stripe = useStripe();
  const elements = useElements();
  return (
    <PaymentElement
      options={{ layout: 'tabs' }}
      onReady={() => {
        if (stripe && elements) onReady(confirmerFor(stripe, elements));
      }}
    />
  );
}

/** Loads Stripe.js (rejecting when its script cannot load) and returns the Payment Element provider. */
export async function createStripeProvider(publishableKey: string): Promise<PaymentProvider> {
  const stripe = await loadStripe(publishableKey);
  if (!stripe) throw new Error('Stripe.js is unavailable');

  function StripePaymentForm({ clientSecret, onReady }: PaymentFormProps) {
    // Elements reads its options once: a new intent needs a new Elements group.
    return (
      <Elements key={clientSecret} stripe={stripe} options={{ clientSecret, appearance: { theme: 'stripe' } }}>
        <StripeCardEntry onReady={onReady} />
      </Elements>
    );
  }
  const loaded: Stripe = stripe;
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
