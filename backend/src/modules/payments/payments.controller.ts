import { Body, Controller, Get, Header, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessConfig } from '@core/config/config-sections';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import type {
  ConfirmSubscriptionResponse,
  CreateIntentResponse,
  OneClickOfferResponse,
  OneClickPurchaseResponse,
  PaymentsConfigResponse,
  VerificationResult,
} from '@contracts/payments';
import { attributionFromRequest } from '../../common/lead-attribution';
import { buyerKeyFor, buyerKeyHash, presentedBuyerKey } from './buyer-key';
import { CheckoutClient, CheckoutService } from './checkout.service';
import { ConfirmSubscriptionDto, CreatePaymentIntentDto, CreateSetupIntentDto } from './dto/create-intent.dto';
import { OneClickOfferQueryDto, OneClickPurchaseDto } from './dto/one-click.dto';
import { OneClickService } from './one-click.service';
import { VerificationService } from './verification.service';

const MAX_USER_AGENT = 500;

function clientOf(req: FastifyRequest, buyerKeyHash: string | null = null): CheckoutClient {
  const attribution = attributionFromRequest(undefined, req.headers.cookie);
  const userAgent = req.headers['user-agent'];
  // The server-side Purchase sends the buyer's user agent, as the browser pixel would.
  if (userAgent && userAgent.length <= MAX_USER_AGENT) attribution.user_agent = userAgent;
  return { ip: req.ip, attribution, buyerKeyHash };
}

@ApiTags('payments')
@Controller()
export class PaymentsController {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly verification: VerificationService,
    private readonly oneClick: OneClickService,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly config: AccessConfig,
  ) {}

  /** A new order is bound to the browser creating it (see buyer-key.ts): the cookie goes out with the answer. */
  private bindBuyer(req: FastifyRequest, reply: FastifyReply): CheckoutClient {
    const key = buyerKeyFor(req.headers.cookie, this.config.secureCookies);
    void reply.header('set-cookie', key.setCookie);
    return clientOf(req, key.hash);
  }

  /** The hash of the buyer key this request's browser holds, if any: verification's proof of who asks. */
  private static presentedKeyHash(req: FastifyRequest): string | null {
    const key = presentedBuyerKey(req.headers.cookie);
    return key ? buyerKeyHash(key) : null;
  }

  @Get('payments/config')
  @ApiOkResponse({ description: 'Which provider confirms cards in the browser, and its publishable key' })
  paymentsConfig(): PaymentsConfigResponse {
    return { provider: this.gateway.provider, publishableKey: this.gateway.publishableKey };
  }

  @Post('create-setup-intent')
  @HttpCode(200)
  @ApiBadRequestResponse({ description: 'Invalid fields, or a plan that is not a subscription' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts from this client or for this e-mail' })
  createSetupIntent(
    @Body() dto: CreateSetupIntentDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreateIntentResponse> {
    return this.checkout.createSetupIntent(dto, this.bindBuyer(req, reply));
  }

  @Post('create-payment-intent')
  @HttpCode(200)
  @ApiBadRequestResponse({ description: 'Invalid fields, or a plan name or amount that disagrees with the catalogue' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts from this client or for this e-mail' })
  createPaymentIntent(
    @Body() dto: CreatePaymentIntentDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreateIntentResponse> {
    return this.checkout.createPaymentIntent(dto, this.bindBuyer(req, reply));
  }

  @Post('confirm-subscription')
  @HttpCode(200)
  @ApiBadRequestResponse({ description: 'Card not confirmed, or plan, amount or e-mail not those of the checkout' })
  @ApiNotFoundResponse({ description: 'No checkout with this setup intent' })
  @ApiTooManyRequestsResponse({ description: 'Too many confirmations from this client or for this checkout' })
  confirmSubscription(@Body() dto: ConfirmSubscriptionDto, @Req() req: FastifyRequest): Promise<ConfirmSubscriptionResponse> {
    return this.checkout.confirmSubscription(dto, clientOf(req));
  }

  @Get('one-click')
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: "The saved card's last four digits and the amount, when this browser may buy the plan in one click" })
  oneClickOffer(@Query() query: OneClickOfferQueryDto, @Req() req: FastifyRequest): Promise<OneClickOfferResponse> {
    return this.oneClick.offer(query.planId, query.email, PaymentsController.presentedKeyHash(req));
  }

  @Post('one-click')
  @HttpCode(200)
  @ApiBadRequestResponse({ description: 'Invalid fields, or a plan that is not one-time' })
  @ApiConflictResponse({ description: 'No saved card this browser may use any more: enter a card' })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts from this client or for this e-mail' })
  oneClickPurchase(
    @Body() dto: OneClickPurchaseDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OneClickPurchaseResponse> {
    return this.oneClick.purchase(dto, this.bindBuyer(req, reply));
  }

  @Get('verify-subscription/:id')
  @ApiNotFoundResponse({ description: 'Unknown or malformed subscription id' })
  @ApiOkResponse({ description: "Status and amount; the buyer's e-mail, name and referral only to the browser that created the order" })
  verifySubscription(@Param('id') id: string, @Req() req: FastifyRequest): Promise<VerificationResult> {
    return this.verification.verify('subscription', id, PaymentsController.presentedKeyHash(req));
  }

  @Get('verify-payment/:id')
  @ApiNotFoundResponse({ description: 'Unknown or malformed payment intent id' })
  @ApiOkResponse({ description: "Status and amount; the buyer's e-mail, name and referral only to the browser that created the order" })
  verifyPayment(@Param('id') id: string, @Req() req: FastifyRequest): Promise<VerificationResult> {
    return this.verification.verify('payment', id, PaymentsController.presentedKeyHash(req));
  }
}
