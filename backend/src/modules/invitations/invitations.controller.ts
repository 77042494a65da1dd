import { Body, Controller, Get, Header, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { PUBLIC_WRITE_LIMIT } from '../../common/security';
import type { InvitationGateResponse, InviteeResponse } from '@contracts/invitations';
import { InvitationGateDto } from './dto/invitation-gate.dto';
import { InvitationsService } from './invitations.service';
import type { ClientLimiter } from '../../common/client-limiter';
import { TOKEN_CHECK_LIMITER } from './token-check-limiter';

@ApiTags('invitations')
@Controller()
export class InvitationsController {
  constructor(
    private readonly invitations: InvitationsService,
    @Inject(TOKEN_CHECK_LIMITER) private readonly limiter: ClientLimiter,
  ) {}

  @Post('invitation-gate')
  @HttpCode(201)
  @RouteConfig(PUBLIC_WRITE_LIMIT)
  @Header('Cache-Control', 'no-store')
  @ApiCreatedResponse({
    description:
      'Invitation stored and its e-mail owed. With INVITATION_DELIVERY=instant the answer carries the access token; with email it is {}.',
    schema: { type: 'object', properties: { accessToken: { type: 'string' } } },
  })
  @ApiBadRequestResponse({
    description: 'Name shorter than 2 characters, invalid e-mail, wrong types, control characters or unknown fields',
  })
  @ApiTooManyRequestsResponse({ description: 'Rate limit for this client reached' })
  submit(@Body() dto: InvitationGateDto): Promise<InvitationGateResponse> {
    return this.invitations.submit(dto);
  }

  @Get('validate-token/:token')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({
    description: 'The invitee the token was issued to',
    schema: { type: 'object', properties: { email: { type: 'string' }, name: { type: 'string' } } },
  })
  @ApiNotFoundResponse({ description: 'Unknown, expired or malformed token' })
  @ApiTooManyRequestsResponse({ description: 'Too many token checks from this client' })
  async validate(@Param('token') token: string, @Req() req: FastifyRequest): Promise<InviteeResponse> {
    await this.limiter.consume(req.ip);
    return this.invitations.invitee(token);
  }
}
