import { Body, Controller, Get, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminSessionResponse } from '@contracts/admin';
import { AdminOnly, CurrentAdmin } from '../../common/admin-access/admin.guard';
import { AdminAuthService } from './admin-auth.service';
import type { AdminPrincipal } from '../../common/admin-access/admin-session.service';
import { AdminLoginDto } from './dto/admin-login.dto';

@ApiTags('admin')
@Controller('admin')
export class AdminAuthController {
  constructor(private readonly auth: AdminAuthService) {}

  @Post('login')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: 'Signed in: the session cookie is set; the body carries the CSRF token' })
  @ApiBadRequestResponse({ description: 'E-mail or password missing, not text, too long, or unknown fields' })
  @ApiUnauthorizedResponse({ description: "'Invalid email or password', whichever of the two was wrong" })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts from this client or for this address' })
  async login(
    @Body() dto: AdminLoginDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminSessionResponse> {
    const { cookie, session } = await this.auth.login(dto.email, dto.password, req.ip);
    reply.header('set-cookie', cookie);
    return session;
  }

  @Post('logout')
  @HttpCode(204)
  @AdminOnly()
  @ApiNoContentResponse({ description: 'Signed out: the session is deleted and the cookie cleared' })
  async logout(
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    reply.header('set-cookie', await this.auth.logout(admin, req.headers.cookie, req.ip));
  }

  @Get('session')
  @Header('cache-control', 'no-store')
  @AdminOnly()
  @ApiOkResponse({ description: 'The signed-in admin, the CSRF token for mutating calls and the payment provider' })
  session(@CurrentAdmin() admin: AdminPrincipal): AdminSessionResponse {
    return this.auth.sessionResponse(admin);
  }
}
