import { Body, Controller, Get, Header, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCookieAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  AccountMembership,
  AccountResponse,
  AccountSessionResponse,
  BillingPortalResponse,
  CardUpdateResponse,
} from '@contracts/account';
import { normalizeEmail } from '@contracts/email';
import { PUBLIC_WRITE_LIMIT } from '../../common/security';
import { AccountGuard, CurrentAccount } from './account.guard';
import type { ClientLimiter } from '../../common/client-limiter';
import { ACCOUNT_LINK_LIMITER } from './account-link-limiter';
import { AccountService } from './account.service';
import { ApiAccountWrite } from './account-write.decorator';
import { ACCOUNT_SESSION_COOKIE, type AccountPrincipal, AccountSessionService } from './account-session.service';
import { AccountLinkDto } from './dto/account-link.dto';
import { AccountOrderDto, ApplyCardUpdateDto } from './dto/account-order.dto';
import { AccountSessionDto } from './dto/account-session.dto';
import { CancelMembershipDto, PauseMembershipDto, SaveOfferDto } from './dto/cancellation.dto';

@ApiTags('account')
@Controller('account')
export class AccountController {
  constructor(
    private readonly account: AccountService,
    private readonly sessions: AccountSessionService,
    @Inject(ACCOUNT_LINK_LIMITER) private readonly limiter: ClientLimiter,
  ) {}

  @Post('link')
  @HttpCode(202)
  @RouteConfig(PUBLIC_WRITE_LIMIT)
  @Header('Cache-Control', 'no-store')
  @ApiAcceptedResponse({
    description: 'Always {}: a sign-in link is e-mailed when the address has ordered, and nothing says whether it has',
  })
  @ApiBadRequestResponse({ description: 'Invalid e-mail, wrong types or unknown fields' })
  @ApiTooManyRequestsResponse({ description: 'Too many requests from this client or for this address' })
  async link(@Body() dto: AccountLinkDto, @Req() req: FastifyRequest): Promise<Record<string, never>> {
    await this.limiter.consume(req.ip, normalizeEmail(dto.email));
    await this.account.requestLink(dto.email);
    return {};
  }

  @Post('session')
  @HttpCode(200)
  @RouteConfig(PUBLIC_WRITE_LIMIT)
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ description: `Signed in: the ${ACCOUNT_SESSION_COOKIE} cookie is set and the CSRF token returned` })
  @ApiBadRequestResponse({ description: 'Unknown, expired, already used or malformed token' })
  async session(@Body() dto: AccountSessionDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<AccountSessionResponse> {
    const emailNormalized = await this.account.consumeLink(dto.token);
    const { cookie, principal } = await this.sessions.create(emailNormalized);
    void reply.header('set-cookie', cookie);
    return { csrfToken: principal.csrfToken, expiresAt: principal.expiresAt.toISOString() };
  }

  @Post('logout')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Signed out; the cookie is cleared' })
  @ApiBadRequestResponse({ description: 'A body that is not valid JSON (none is needed)' })
  async logout(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.sessions.destroy(req.headers.cookie);
    void reply.header('set-cookie', this.sessions.clearedCookie());
  }

  @Get()
  @UseGuards(AccountGuard)
  @Header('Cache-Control', 'no-store')
  @ApiCookieAuth(ACCOUNT_SESSION_COOKIE)
  @ApiOkResponse({ description: "The buyer's paid orders as memberships, with their payments, and the session's CSRF token" })
  @ApiUnauthorizedResponse({ description: 'No account session, or it expired' })
  overview(@CurrentAccount() account: AccountPrincipal): Promise<AccountResponse> {
    return this.account.overview(account);
  }

  @Post('cancel')
  @HttpCode(200)
  @UseGuards(AccountGuard)
  @ApiOkResponse({ description: "The membership ends at the end of its current period; the survey's answer, if any, is stored" })
  @ApiAccountWrite()
  @ApiConflictResponse({ description: 'Not a running subscription, or refused by the payment provider' })
  cancel(@CurrentAccount() account: AccountPrincipal, @Body() dto: CancelMembershipDto): Promise<AccountMembership> {
    return this.account.cancel(account, dto);
  }

  @Post('pause')
  @HttpCode(200)
  @UseGuards(AccountGuard)
  @ApiOkResponse({ description: 'Nothing is charged for the next 1–3 months after the paid period; charging resumes by itself' })
  @ApiAccountWrite()
  @ApiConflictResponse({ description: 'Not an active subscription (or already paused), or refused by the payment provider' })
  pause(@CurrentAccount() account: AccountPrincipal, @Body() dto: PauseMembershipDto): Promise<AccountMembership> {
    return this.account.pause(account, dto);
  }

  @Post('save-offer')
  @HttpCode(200)
  @UseGuards(AccountGuard)
  @ApiOkResponse({ description: "The save offer's coupon comes off the next renewal, once" })
  @ApiAccountWrite()
  @ApiConflictResponse({ description: 'No save offer for this member (none configured, or had it already), or refused by the provider' })
  saveOffer(@CurrentAccount() account: AccountPrincipal, @Body() dto: SaveOfferDto): Promise<AccountMembership> {
    return this.account.takeSaveOffer(account, dto);
  }

  @Post('resume')
  @HttpCode(200)
  @UseGuards(AccountGuard)
  @ApiOkResponse({ description: 'The membership renews again' })
  @ApiAccountWrite()
  @ApiConflictResponse({ description: 'Not a running subscription, or refused by the payment provider' })
  resume(@CurrentAccount() account: AccountPrincipal, @Body() dto: AccountOrderDto): Promise<AccountMembership> {
    return this.account.resume(account, dto.orderId);
  }

  @Post('billing-portal')
  @HttpCode(200)
  @UseGuards(AccountGuard)
  @ApiOkResponse({ description: "Stripe's Billing Portal session to open" })
  @ApiAccountWrite()
  @ApiConflictResponse({ description: 'Not a subscription, no billing details, or the provider has no billing portal (the sandbox)' })
  billingPortal(@CurrentAccount() account: AccountPrincipal, @Body() dto: AccountOrderDto): Promise<BillingPortalResponse> {
    return this.account.billingPortal(account, dto.orderId);
  }

  @Post('card/setup')
  @HttpCode(200)
  @UseGuards(AccountGuard)
  @ApiOkResponse({ description: 'A card setup for the card form to confirm' })
  @ApiAccountWrite()
  @ApiConflictResponse({ description: 'Not a subscription, no billing details, or refused by the payment provider' })
  startCardUpdate(@CurrentAccount() account: AccountPrincipal, @Body() dto: AccountOrderDto): Promise<CardUpdateResponse> {
    return this.account.startCardUpdate(account, dto.orderId);
  }

  @Post('card')
  @HttpCode(200)
  @UseGuards(AccountGuard)
  @ApiOkResponse({ description: "The confirmed card is now the subscription's" })
  @ApiAccountWrite()
  @ApiConflictResponse({ description: 'The card setup is not confirmed, or belongs to another membership' })
  applyCardUpdate(@CurrentAccount() account: AccountPrincipal, @Body() dto: ApplyCardUpdateDto): Promise<AccountMembership> {
    return this.account.applyCardUpdate(account, dto.orderId, dto.setupIntentId);
  }
}
