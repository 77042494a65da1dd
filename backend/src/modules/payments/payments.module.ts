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
import { SandboxClockService } from './sandbox/sandbox-clock.service';
import { SandboxConfirmService } from './sandbox/sandbox-confirm.service';
import { SandboxDisputesService } from './sandbox/sandbox-disputes.service';
import { SandboxController, SandboxOnlyGuard } from './sandbox/sandbox.controller';
import { SandboxControlsGuard } from './sandbox/sandbox-controls.guard';
import { VerificationService } from './verification.service';
import { keepRawBodies } from './webhooks/raw-body.hook';
import { StripeWebhookController } from './webhooks/stripe-webhook.controller';
import { StripeWebhookService } from './webhooks/stripe-webhook.service';

/** Checkout, verification and webhooks; the gateway is Stripe with keys, the sandbox without. */
@Module({
  imports: [PaymentGatewayModule, AdminAccessModule],
  controllers: [PaymentsController, CouponsController, StripeWebhookController, SandboxController],
  providers: [
    CheckoutService,
    OneClickService,
    CouponCheckout,
    couponCheckLimiter,
    VerificationService,
    StripeWebhookService,
    IntentRateLimiter,
    SandboxConfirmService,
    SandboxClockService,
    SandboxDisputesService,
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
