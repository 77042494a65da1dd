import { Module } from '@nestjs/common';
import type { PaymentProviderName } from '@contracts/payments';
import { PaymentsConfig, StripeConfig } from '../config/config-sections';
import { PAYMENT_GATEWAY, PaymentGateway } from './payment-gateway';
import { SandboxGateway } from './providers/sandbox/sandbox.gateway';
import { SandboxStore } from './providers/sandbox/sandbox-store';
import { createStripeGateway } from './providers/stripe/stripe.gateway';

/** What an adapter may be built from: the configuration and the sandbox's records. */
interface AdapterDeps {
  config: PaymentsConfig;
  stripe: StripeConfig;
  sandboxStore: SandboxStore;
}

/** Every payment provider and how its adapter is built: adding a provider is one line here. */
const PAYMENT_PROVIDERS: Readonly<Record<PaymentProviderName, (deps: AdapterDeps) => PaymentGateway>> = {
  stripe: ({ stripe }) => createStripeGateway(stripe),
  sandbox: ({ config, sandboxStore }) => new SandboxGateway(sandboxStore, config.SANDBOX_WEBHOOK_SECRET),
};

function gatewayFor(config: PaymentsConfig, stripe: StripeConfig, sandboxStore: SandboxStore): PaymentGateway {
  return PAYMENT_PROVIDERS[config.paymentProvider()]({ config, stripe, sandboxStore });
}

/**
 * The configured gateway (Stripe with keys, the sandbox without) and the sandbox's records it
 * works on. No controllers and no HTTP hooks: the API's PaymentsModule and the
 * worker both import it, so webhook events are re-read through the very gateway checkout uses.
 */
@Module({
  providers: [SandboxStore, { provide: PAYMENT_GATEWAY, inject: [PaymentsConfig, StripeConfig, SandboxStore], useFactory: gatewayFor }],
  exports: [PAYMENT_GATEWAY, SandboxStore],
})
export class PaymentGatewayModule {}
