import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { PaymentsConfig } from '@core/config/config-sections';
import { AdminAccessModule } from '../../common/admin-access/admin-access.module';
import { CheckoutService } from './checkout.service';
import { OneClickService } from './one-click.service';
import { couponCheckLimiter } from './coupon-check-limiter';
import { CouponCheckout } from './coupon-checkout';
import { CouponsController } from './coupons.controller';
import { PaymentGatewayModule } from '@core/payments/payment-gateway.module';
import { IntentRateLimiter } from './intent-rate-limiter';
import { PaymentsController } from './payments.controller';
import { SandboxModule } from '@core/payments/providers/sandbox/sandbox.module';
import { SandboxController, SandboxOnlyGuard } from './sandbox/sandbox.controller';
import { SandboxControlsGuard } from './sandbox/sandbox-controls.guard';
import { VerificationService } from './verification.service';
import { keepRawBodies } from './webhooks/raw-body.hook';
import { PaymentWebhookController } from './webhooks/payment-webhook.controller';
import { PaymentWebhookService } from './webhooks/payment-webhook.service';

/** Checkout, verification and webhooks; the gateway is Stripe with keys, the sandbox without. */
@Module({
  imports: [PaymentGatewayModule, SandboxModule, AdminAccessModule],
  controllers: [PaymentsController, CouponsController, PaymentWebhookController, SandboxController],
  providers: [
    CheckoutService,
    OneClickService,
    CouponCheckout,
    couponCheckLimiter,
    VerificationService,
    PaymentWebhookService,
    IntentRateLimiter,
    SandboxOnlyGuard,
    SandboxControlsGuard,
  ],
  exports: [PaymentGatewayModule],
})
export class PaymentsModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: PaymentsConfig,
  ) {}

  onModuleInit(): void {
    keepRawBodies(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), this.config.webhookBodyLimitBytes);
  }
}
