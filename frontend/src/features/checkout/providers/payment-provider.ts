import type { PaymentProviderName, PaymentsConfigResponse } from '@contracts/payments';
import type { ComponentType } from 'react';

/**
 * What confirming a card led to, in the shape of Stripe.js's `redirect: 'if_required'` results:
 * the intent and its status, the provider's error, or a page redirect the buyer is following to
 * authenticate (the page is being left, so the caller just waits).
 */
export type ConfirmResult =
  { kind: 'intent'; id: string; status: string } | { kind: 'error'; message: string | null } | { kind: 'redirecting' };

export interface CardConfirmer {
  confirmSetup(returnUrl: string): Promise<ConfirmResult>;
  confirmPayment(returnUrl: string): Promise<ConfirmResult>;
}

export interface PaymentFormProps {
  /** The intent's client secret from create-setup-intent / create-payment-intent. */
  clientSecret: string;
  /** Called once the card entry is usable; the pay button stays disabled until then. */
  onReady: (confirmer: CardConfirmer) => void;
}

/** A card-entry UI and the way it confirms intents: Stripe's Payment Element, or the sandbox's 'Test mode' form. */
export interface PaymentProvider {
  name: PaymentProviderName;
  PaymentForm: ComponentType<PaymentFormProps>;
}

/**
 * Loads the configured provider's code. Each is a separate chunk, so in sandbox mode Stripe's
 * library is never fetched and no request goes to a Stripe host. Rejects when Stripe.js cannot load.
 */
export async function loadPaymentProvider(config: PaymentsConfigResponse): Promise<PaymentProvider> {
  if (config.provider === 'stripe') {
    if (!config.publishableKey) throw new Error('Stripe is configured without a publishable key');
    const { createStripeProvider } = await import('./stripe-provider');
    return createStripeProvider(config.publishableKey);
  }
  const { sandboxProvider } = await import('./sandbox-provider');
  return sandboxProvider;
}
