import type { SandboxCardError } from '@contracts/payments';

/** Stripe's own wording, so the sandbox's toasts read like production's. */
export const CARD_ERRORS = {
  declined: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  insufficient_funds: {
    type: 'card_error',
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  authentication_failed: {
    type: 'card_error',
    code: 'payment_intent_authentication_failure',
    message: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  },
  invalid_number: { type: 'validation_error', code: 'incorrect_number', message: 'Your card number is invalid.' },
  expired: { type: 'validation_error', code: 'invalid_expiry_year_past', message: "Your card's expiration date is in the past." },
  invalid_expiry_month: { type: 'validation_error', code: 'invalid_expiry_month', message: "Your card's expiration month is invalid." },
  invalid_cvc: { type: 'validation_error', code: 'incomplete_cvc', message: "Your card's security code is incomplete." },
} as const satisfies Record<string, SandboxCardError>;
