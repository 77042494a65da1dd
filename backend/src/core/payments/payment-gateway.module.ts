import { Module } from '@nestjs/common';
import { AppConfig, ConfigError } from '../config/app-config';
import { OrderRepository } from '../database/repositories/order.repository';
import { SandboxStore } from './sandbox/sandbox-store';
import { PAYMENT_GATEWAY, PaymentGateway } from './payment-gateway';
import { SandboxGateway } from './sandbox.gateway';
import { StripeGateway, stripeClient } from './stripe.gateway';

function gatewayFor(config: AppConfig, store: SandboxStore, orders: OrderRepository): PaymentGateway {
  if (config.PAYMENT_PROVIDER === 'sandbox') return new SandboxGateway(store, orders);
  if (!config.STRIPE_PUBLISHABLE_KEY || !config.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError(
      'Invalid configuration, fix these environment variables:\n  STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY',
    );
  }
  return new StripeGateway(stripeClient(config));
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
