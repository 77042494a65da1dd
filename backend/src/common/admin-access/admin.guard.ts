import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { ApiCookieAuth, ApiForbiddenResponse, ApiHeader, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ADMIN_CSRF_HEADER } from '@contracts/admin';
import { ADMIN_SESSION_COOKIE, AdminPrincipal, AdminSessionService, csrfTokenMatches } from './admin-session.service';

export type AdminRequest = FastifyRequest & { admin?: AdminPrincipal };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const ADMIN_UNAUTHENTICATED_MESSAGE = 'Please sign in as an admin to continue.';
const ADMIN_CSRF_MESSAGE = 'Missing or invalid CSRF token. Reload the page and try again.';

/**
 * Admits requests with a live admin session (401 otherwise) and, for anything but a read, the
 * session's CSRF token in the x-csrf-token header (403 otherwise). Attaches the session as
 * `request.admin`.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly sessions: AdminSessionService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AdminRequest>();
    const admin = await this.sessions.authenticate(request.headers.cookie);
    if (!admin) throw new UnauthorizedException(ADMIN_UNAUTHENTICATED_MESSAGE);
    if (!SAFE_METHODS.has(request.method) && !csrfTokenMatches(request.headers[ADMIN_CSRF_HEADER], admin.csrfToken)) {
      throw new ForbiddenException(ADMIN_CSRF_MESSAGE);
    }
    request.admin = admin;
    return true;
  }
}

/** Marks a controller or route as admin-only: session required, CSRF token on mutations. */
export function AdminOnly(): ClassDecorator & MethodDecorator {
  return applyDecorators(
    UseGuards(AdminGuard),
    ApiCookieAuth(ADMIN_SESSION_COOKIE),
    ApiHeader({
      name: ADMIN_CSRF_HEADER,
      required: false,
      description: 'Required on POST, PATCH and DELETE: csrfToken from GET /api/admin/session',
    }),
    ApiUnauthorizedResponse({ description: 'No admin session, or it expired' }),
    ApiForbiddenResponse({ description: 'Missing or wrong CSRF token' }),
  );
}

/** The signed-in admin of an @AdminOnly() route. */
export const CurrentAdmin = createParamDecorator((_data: unknown, context: ExecutionContext): AdminPrincipal => {
  const admin = context.switchToHttp().getRequest<AdminRequest>().admin;
  if (!admin) throw new UnauthorizedException(ADMIN_UNAUTHENTICATED_MESSAGE);
  return admin;
});
