import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCookieAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ACCOUNT_SESSION_COOKIE } from './account-session.service';

/** The answers every signed-in write about one membership may give (AccountGuard, AccountOrderDto, the order lookup), documented. */
export const ApiAccountWrite = () =>
  applyDecorators(
    ApiCookieAuth(ACCOUNT_SESSION_COOKIE),
    ApiBadRequestResponse({ description: 'orderId missing or not an id, wrong types or unknown fields' }),
    ApiUnauthorizedResponse({ description: 'No account session, or it expired' }),
    ApiForbiddenResponse({ description: 'Missing or wrong CSRF token' }),
    ApiNotFoundResponse({ description: "None of the signed-in buyer's paid memberships has this orderId" }),
  );
