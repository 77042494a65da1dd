import {
  Body,
  CanActivate,
  Controller,
  Get,
  HttpCode,
  Injectable,
  NotFoundException,
  Param,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { answerProviderErrors } from '../../../common/provider-answers';
import { PUBLIC_WRITE_LIMIT } from '../../../common/security';
import { PaymentsConfig } from '@core/config/config-sections';
import type { SandboxClockResponse, SandboxConfirmResponse, SandboxDisputeResponse } from '@contracts/payments';
import { authenticatePage } from '@core/payments/providers/sandbox/authenticate-page';
import { SandboxClockService } from '@core/payments/providers/sandbox/sandbox-clock.service';
import { NOT_WAITING_FOR_AUTHENTICATION, SandboxConfirmService } from '@core/payments/providers/sandbox/sandbox-confirm.service';
import { SandboxDisputesService } from '@core/payments/providers/sandbox/sandbox-disputes.service';
import { SandboxControlsGuard } from './sandbox-controls.guard';
import { SandboxAuthenticateDto, SandboxClockDto, SandboxConfirmDto, SandboxDisputeEvidenceDto, SandboxNextActionDto } from './sandbox.dto';

/** The sandbox's refusals are of the request (an address not of this site): 400; what it does not hold, 404. */
const asHttp = <T>(call: () => Promise<T>): Promise<T> => answerProviderErrors(call, { refused: 400 });

/** The sandbox answers only when it is the configured provider: with Stripe keys its routes are 404. */
@Injectable()
export class SandboxOnlyGuard implements CanActivate {
  constructor(private readonly config: PaymentsConfig) {}

  canActivate(): boolean {
    if (this.config.paymentProvider() !== 'sandbox') throw new NotFoundException('Not found');
    return true;
  }
}

/**
 * Stripe.js's confirmations and the bank's authentication page, for the offline sandbox, and its
 * owner levers (clock, dispute evidence): the HTTP face of core/payments/providers/sandbox/ (only
 * the API registers controllers; the worker imports the gateway module too). The buyer's routes
 * (confirm-payment, confirm-setup, next-action, authenticate) stay open under production too: they
 * are how a test buyer pays on a sandbox staging site, and they only ever act on the intent whose
 * client secret they are given.
 * The levers act on every test subscription, so SandboxControlsGuard fences them.
 */
@ApiExcludeController()
@UseGuards(SandboxOnlyGuard)
@Controller('sandbox')
export class SandboxController {
  constructor(
    private readonly sandbox: SandboxConfirmService,
    private readonly clock: SandboxClockService,
    private readonly disputes: SandboxDisputesService,
  ) {}

  /** Like a Stripe test clock: moves the sandbox's time and performs what fell due (renewals), answering once their events are stored. */
  @Post('clock')
  @UseGuards(SandboxControlsGuard)
  @HttpCode(200)
  @RouteConfig(PUBLIC_WRITE_LIMIT)
  advanceClock(@Body() dto: SandboxClockDto): Promise<SandboxClockResponse> {
    return this.clock.advance(dto.advanceDays);
  }

  /** Like Stripe's test evidence on a dispute of card 0259: `winning_evidence` closes it won, `losing_evidence` lost. */
  @Post('disputes/:id/evidence')
  @UseGuards(SandboxControlsGuard)
  @HttpCode(200)
  @RouteConfig(PUBLIC_WRITE_LIMIT)
  submitDisputeEvidence(@Param('id') id: string, @Body() dto: SandboxDisputeEvidenceDto): Promise<SandboxDisputeResponse> {
    // Evidence for a dispute already closed otherwise is refused by its state: 409.
    return answerProviderErrors(() => this.disputes.submitEvidence(id, dto.evidence), { refused: 409 });
  }

  @Post('confirm-payment')
  @HttpCode(200)
  @RouteConfig(PUBLIC_WRITE_LIMIT)
  confirmPayment(@Body() dto: SandboxConfirmDto): Promise<SandboxConfirmResponse> {
    return asHttp(() => this.sandbox.confirm('payment_intent', dto));
  }

  @Post('confirm-setup')
  @HttpCode(200)
  @RouteConfig(PUBLIC_WRITE_LIMIT)
  confirmSetup(@Body() dto: SandboxConfirmDto): Promise<SandboxConfirmResponse> {
    return asHttp(() => this.sandbox.confirm('setup_intent', dto));
  }

  @Post('next-action')
  @HttpCode(200)
  @RouteConfig(PUBLIC_WRITE_LIMIT)
  nextAction(@Body() dto: SandboxNextActionDto): Promise<SandboxConfirmResponse> {
    return asHttp(() => this.sandbox.nextAction(dto));
  }

  @Get('authenticate')
  async authenticatePage(
    @Query('client_secret') clientSecret: unknown,
    @Query('return_url') returnUrl: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (typeof clientSecret !== 'string' || typeof returnUrl !== 'string') throw new NotFoundException(NOT_WAITING_FOR_AUTHENTICATION);
    const pending = await asHttp(() => this.sandbox.pendingAuthentication(clientSecret, returnUrl));
    await reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(authenticatePage(clientSecret, pending.returnUrl.toString(), pending.kind));
  }

  @Post('authenticate')
  @RouteConfig(PUBLIC_WRITE_LIMIT)
  async authenticate(@Body() dto: SandboxAuthenticateDto, @Res() reply: FastifyReply): Promise<void> {
    const location = await asHttp(() => this.sandbox.authenticate(dto.client_secret, dto.return_url, dto.outcome));
    await reply.redirect(location, 303);
  }
}
