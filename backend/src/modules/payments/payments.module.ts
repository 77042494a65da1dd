import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AppConfig, ConfigError } from '../../config/app-config';
import { CheckoutService } from './checkout.service';
import { PAYMENT_GATEWAY, PaymentGateway } from './gateway/payment-gateway';
import { SandboxGateway } from './gateway/sandbox.gateway';
import { StripeGateway, stripeClient } from './gateway/stripe.gateway';
import { IntentRateLimiter } from './intent-rate-limiter';
import { OrderRepository } from './orders/order.repository';
import { PaymentsController } from './payments.controller';
import { SandboxConfirmService } from './sandbox/sandbox-confirm.service';
import { SandboxController, SandboxOnlyGuard } from './sandbox/sandbox.controller';
import { SandboxStore } from './sandbox/sandbox-store';
import { VerificationService } from './verification.service';
import { keepRawBodies } from './webhooks/raw-body.hook';
import { StripeWebhookController } from './webhooks/stripe-webhook.controller';
import { StripeWebhookService } from './webhooks/stripe-webhook.service';

function gatewayFor(config: AppConfig, store: SandboxStore, orders: OrderRepository): PaymentGateway {
  if (config.PAYMENT_PROVIDER === 'sandbox') return new SandboxGateway(store, orders);
  if (!config.STRIPE_PUBLISHABLE_KEY || !config.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError('Invalid configuration, fix these environment variables:\n  STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY');
  }
  return new StripeGateway(stripeClient(config));
}

/** Checkout, verification and webhooks; the gateway is Stripe with keys, the sandbox without. */
@Module({
  controllers: [PaymentsController, StripeWebhookController, SandboxController],
  providers: [
    CheckoutService,
    VerificationService,
    StripeWebhookService,
    IntentRateLimiter,
    OrderRepository,
    SandboxStore,
    SandboxConfirmService,
    SandboxOnlyGuard,
    { provide: PAYMENT_GATEWAY, inject: [AppConfig, SandboxStore, OrderRepository], useFactory: gatewayFor },
  ],
  exports: [PAYMENT_GATEWAY],
})
export class PaymentsModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    keepRawBodies(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), this.config.BODY_LIMIT_BYTES);
  }
}
