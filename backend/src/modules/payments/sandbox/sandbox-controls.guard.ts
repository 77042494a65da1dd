import { CanActivate, ExecutionContext, Injectable, NotFoundException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ADMIN_CSRF_HEADER } from '@contracts/admin';
import { ServerConfig } from '@core/config/config-sections';
import { AdminSessionService, csrfTokenMatches } from '../../../common/admin-access/admin-session.service';
import { NO_SUCH_ROUTE } from '../../../common/http-exception.filter';

/**
 * The sandbox's owner levers (its clock, a dispute's evidence) move every test subscription and
 * send e-mails to the addresses on them. Under NODE_ENV=production (a staging site, or a mistake)
 * only a signed-in admin sending the session's CSRF token may pull them (the admin screen
 * 'Sandbox clock' does); anyone else, an admin without the token included, gets the 404 of an
 * address that does not exist, so the levers are not even advertised. Outside production (local
 * runs, tests) they stay open.
 */
@Injectable()
export class SandboxControlsGuard implements CanActivate {
  constructor(
    private readonly config: ServerConfig,
    private readonly sessions: AdminSessionService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.config.NODE_ENV !== 'production') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const admin = await this.sessions.authenticate(request.headers.cookie);
    if (admin && csrfTokenMatches(request.headers[ADMIN_CSRF_HEADER], admin.csrfToken)) return true;
    throw new NotFoundException(NO_SUCH_ROUTE);
  }
}
