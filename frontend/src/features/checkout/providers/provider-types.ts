import type { PaymentProviderName } from '@contracts/payments';
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
  /**
   * Completes a payment the server confirmed that waits for the buyer (a subscription's first
   * payment the bank asks to authenticate): Stripe.js's handleNextAction, or the sandbox's page.
   * Needs no card form, so it also works when the buyer comes back from authenticating a setup.
   */
  handleNextAction(clientSecret: string, returnUrl: string): Promise<ConfirmResult>;
}
