import { CanActivate, createParamDecorator, ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ACCOUNT_CSRF_HEADER } from '@contracts/account';
import { csrfTokenMatches } from '../../common/admin-access/admin-session.service';
import { AccountPrincipal, AccountSessionService } from './account-session.service';

export type AccountRequest = FastifyRequest & { account?: AccountPrincipal };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const ACCOUNT_UNAUTHENTICATED_MESSAGE = 'Please sign in with the link we e-mail you to see your account.';
const ACCOUNT_CSRF_MESSAGE = 'Missing or invalid CSRF token. Reload the page and try again.';

/**
 * Admits requests with a live account session (401 otherwise) and, for anything but a read, the
 * session's CSRF token in the x-csrf-token header (403 otherwise), as the admin area does.
 */
@Injectable()
export class AccountGuard implements CanActivate {
  constructor(private readonly sessions: AccountSessionService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AccountRequest>();
    const account = await this.sessions.authenticate(request.headers.cookie);
    if (!account) throw new UnauthorizedException(ACCOUNT_UNAUTHENTICATED_MESSAGE);
    if (!SAFE_METHODS.has(request.method) && !csrfTokenMatches(request.headers[ACCOUNT_CSRF_HEADER], account.csrfToken)) {
      throw new ForbiddenException(ACCOUNT_CSRF_MESSAGE);
    }
    request.account = account;
    return true;
  }
}

/** The signed-in buyer of a route behind AccountGuard. */
export const CurrentAccount = createParamDecorator((_data: unknown, context: ExecutionContext): AccountPrincipal => {
  const account = context.switchToHttp().getRequest<AccountRequest>().account;
  if (!account) throw new UnauthorizedException(ACCOUNT_UNAUTHENTICATED_MESSAGE);
  return account;
});
