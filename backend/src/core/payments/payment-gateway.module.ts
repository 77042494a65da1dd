import { Module } from '@nestjs/common';
import type { PaymentProviderName } from '@contracts/payments';
import { AppConfig } from '../config/app-config';
import { OrderRepository } from '../database/repositories/order.repository';
import { PAYMENT_GATEWAY, PaymentGateway } from './payment-gateway';
import { SandboxGateway } from './providers/sandbox/sandbox.gateway';
import { SandboxStore } from './providers/sandbox/sandbox-store';
import { createStripeGateway } from './providers/stripe/stripe.gateway';

/** What an adapter may be built from: the configuration and the records this module provides. */
interface AdapterDeps {
  config: AppConfig;
  orders: OrderRepository;
  sandboxStore: SandboxStore;
}

/** Every payment provider and how its adapter is built: adding a provider is one line here. */
const PAYMENT_PROVIDERS: Readonly<Record<PaymentProviderName, (deps: AdapterDeps) => PaymentGateway>> = {
  stripe: ({ config, orders }) => createStripeGateway(config, (emailNormalized) => orders.customerFor('stripe', emailNormalized)),
  sandbox: ({ config, sandboxStore, orders }) => new SandboxGateway(sandboxStore, orders, config.SANDBOX_WEBHOOK_SECRET),
};

function gatewayFor(config: AppConfig, sandboxStore: SandboxStore, orders: OrderRepository): PaymentGateway {
  return PAYMENT_PROVIDERS[config.paymentProvider()]({ config, orders, sandboxStore });
}

/**
 * The configured gateway (Stripe with keys, the sandbox without) and the order and sandbox
 * records it works on. No controllers and no HTTP hooks: the API's PaymentsModule and the
 * worker both import it, so webhook events are re-read through the very gateway checkout uses.
 */
@Module({
  providers: [SandboxStore, { provide: PAYMENT_GATEWAY, inject: [AppConfig, SandboxStore, OrderRepository], useFactory: gatewayFor }],
  exports: [PAYMENT_GATEWAY, SandboxStore],
})
export class PaymentGatewayModule {}
