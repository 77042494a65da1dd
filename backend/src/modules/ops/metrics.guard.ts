import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '@core/config/app-config';
import { AdminSessionService } from '../../common/admin-access/admin-session.service';

export const METRICS_UNAUTHENTICATED_MESSAGE = 'Send the metrics token as a bearer token, or sign in as an admin.';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Compares digests, so neither the token's content nor its length shows in the time taken. */
export function bearerMatches(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice('Bearer '.length).trim()), digest(token));
}

/** Admits a scraper with METRICS_TOKEN as its bearer token, or a signed-in admin; 401 otherwise. */
@Injectable()
export class MetricsGuard implements CanActivate {
  constructor(
    private readonly config: AppConfig,
    private readonly sessions: AdminSessionService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (bearerMatches(request.headers.authorization, this.config.METRICS_TOKEN)) return true;
    if (await this.sessions.authenticate(request.headers.cookie)) return true;
    throw new UnauthorizedException(METRICS_UNAUTHENTICATED_MESSAGE);
  }
}
