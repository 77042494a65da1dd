import { SandboxCardForm } from './sandbox-card-form';
import type { PaymentProvider } from './payment-provider';

/** The offline provider: our own API plays Stripe, with Stripe's test-card outcomes. */
export const sandboxProvider: PaymentProvider = { name: 'sandbox', PaymentForm: SandboxCardForm };
