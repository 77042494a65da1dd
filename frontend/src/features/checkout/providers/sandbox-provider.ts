import { sandboxNextAction } from '../api/sandbox-next-action';
import { SandboxCardForm, toResult } from './sandbox-card-form';
import type { PaymentProvider } from './provider-types';

/** The offline provider: our own API plays Stripe, with Stripe's test-card outcomes. */
export const sandboxProvider: PaymentProvider = {
  name: 'sandbox',
  PaymentForm: SandboxCardForm,
  handleNextAction: async (clientSecret, returnUrl) => toResult(await sandboxNextAction({ clientSecret, returnUrl })),
};
