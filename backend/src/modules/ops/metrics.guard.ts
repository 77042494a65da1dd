import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { OpsConfig } from '@core/config/config-sections';
import { bearerMatches } from '@core/runtime/bearer';
import { AdminSessionService } from '../../common/admin-access/admin-session.service';

const METRICS_UNAUTHENTICATED_MESSAGE = 'Send the metrics token as a bearer token, or sign in as an admin.';

/** Admits a scraper with METRICS_TOKEN as its bearer token, or a signed-in admin; 401 otherwise. */
@Injectable()
export class MetricsGuard implements CanActivate {
  constructor(
    private readonly config: OpsConfig,
    private readonly sessions: AdminSessionService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (bearerMatches(request.headers.authorization, this.config.METRICS_TOKEN)) return true;
    if (await this.sessions.authenticate(request.headers.cookie)) return true;
    throw new UnauthorizedException(METRICS_UNAUTHENTICATED_MESSAGE);
  }
}
