import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBadRequestResponse, ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { KEEP_RAW_BODY } from './raw-body.hook';
import { PaymentWebhookService, WebhookReceipt } from './payment-webhook.service';

/** The payment provider's webhook receiver, whichever provider is configured. */
@ApiTags('payments')
@Controller('webhooks')
export class PaymentWebhookController {
  constructor(private readonly webhooks: PaymentWebhookService) {}

  /**
   * The configured provider's events (Stripe's, or the sandbox's); the body is read raw for the
   * signature, not validated as a DTO. The path is Stripe's because the spec and the endpoints
   * registered at Stripe name it.
   */
  @Post('stripe')
  @HttpCode(200)
  @RouteConfig(KEEP_RAW_BODY)
  @ApiExcludeEndpoint()
  @ApiBadRequestResponse({ description: 'Missing or wrong signature, or a timestamp older than 300 s' })
  receive(@Req() req: FastifyRequest): Promise<WebhookReceipt> {
    return this.webhooks.receive(req.rawBody, req.headers);
  }
}
