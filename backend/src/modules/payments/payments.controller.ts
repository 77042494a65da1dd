import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import type { ConfirmSubscriptionResponse, CreateIntentResponse, PaymentsConfigResponse, VerificationResult } from '@contracts/payments';
import { attributionFromRequest } from '../../common/lead-attribution';
import { CheckoutClient, CheckoutService } from './checkout.service';
import { ConfirmSubscriptionDto, CreatePaymentIntentDto, CreateSetupIntentDto } from './dto/create-intent.dto';
import { VerificationService } from './verification.service';

const MAX_USER_AGENT = 500;

function clientOf(req: FastifyRequest): CheckoutClient {
  const attribution = attributionFromRequest(undefined, req.headers.cookie);
  const userAgent = req.headers['user-agent'];
  // The server-side Purchase sends the buyer's user agent, as the browser pixel would.
  if (userAgent && userAgent.length <= MAX_USER_AGENT) attribution.user_agent = userAgent;
  return { ip: req.ip, attribution };
}

@ApiTags('payments')
@Controller()
export class PaymentsController {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly verification: VerificationService,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  @Get('payments/config')
  @ApiOkResponse({ description: 'Which provider confirms cards in the browser, and its publishable key' })
  paymentsConfig(): PaymentsConfigResponse {
    return { provider: this.gateway.provider, publishableKey: this.gateway.publishableKey };
  }

  @Post('create-setup-intent')
  @HttpCode(200)
  @ApiBadRequestResponse({ description: 'Invalid fields, or a plan that is not a subscription' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts from this client or for this e-mail' })
  createSetupIntent(@Body() dto: CreateSetupIntentDto, @Req() req: FastifyRequest): Promise<CreateIntentResponse> {
    return this.checkout.createSetupIntent(dto, clientOf(req));
  }

  @Post('create-payment-intent')
  @HttpCode(200)
  @ApiBadRequestResponse({ description: 'Invalid fields, or a plan name or amount that disagrees with the catalogue' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts from this client or for this e-mail' })
  createPaymentIntent(@Body() dto: CreatePaymentIntentDto, @Req() req: FastifyRequest): Promise<CreateIntentResponse> {
    return this.checkout.createPaymentIntent(dto, clientOf(req));
  }

  @Post('confirm-subscription')
  @HttpCode(200)
  @ApiBadRequestResponse({ description: 'Card not confirmed, or plan, amount or e-mail not those of the checkout' })
  @ApiNotFoundResponse({ description: 'No checkout with this setup intent' })
  @ApiTooManyRequestsResponse({ description: 'Too many confirmations from this client or for this checkout' })
  confirmSubscription(@Body() dto: ConfirmSubscriptionDto, @Req() req: FastifyRequest): Promise<ConfirmSubscriptionResponse> {
    return this.checkout.confirmSubscription(dto, clientOf(req));
  }

  @Get('verify-subscription/:id')
  @ApiNotFoundResponse({ description: 'Unknown or malformed subscription id' })
  verifySubscription(@Param('id') id: string): Promise<VerificationResult> {
    return this.verification.verify('subscription', id);
  }

  @Get('verify-payment/:id')
  @ApiNotFoundResponse({ description: 'Unknown or malformed payment intent id' })
  verifyPayment(@Param('id') id: string): Promise<VerificationResult> {
    return this.verification.verify('payment', id);
  }
}
