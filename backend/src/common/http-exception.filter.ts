import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { isPoolBusy, type PoolBusyReason } from '@core/database/pool-admission';
import { isDatabaseUnavailable } from './database-unavailable';
import { sendError } from './error-body';
import { loggableError, loggablePath } from './log-redaction';

const SERVER_ERROR_MESSAGE = 'Something went wrong on our side. Please try again in a moment.';
const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.';
/** Seconds a client is asked to wait before retrying a 503: the database or the payment provider away. */
const UNAVAILABLE_RETRY_AFTER_S = 5;

/** Fastify's own errors (body too large, malformed JSON, wrong content type) carry statusCode. */
interface FrameworkError extends Error {
  statusCode?: number;
  code?: string;
}

/** Statuses whose framework wording we replace, whichever layer raised them. */
const STATUS_MESSAGES: Record<number, string> = {
  413: 'The request body is too large',
  414: 'The address is too long',
  415: 'Send the request body as JSON (Content-Type: application/json)',
};

/** Nest's answer for an unmatched route quotes the whole URL back, however long or odd. */
const UNMATCHED_ROUTE = /^Cannot [A-Z-]+ \//;
export const NO_SUCH_ROUTE = 'There is nothing at this address for this method; check the method and the path';

/** For framework errors whose own wording is only the status phrase ("Forbidden") or quotes the request back. */
const FRAMEWORK_FALLBACK: Record<number, string> = {
  400: 'The request could not be understood',
  403: 'This address may not be opened',
  404: NO_SUCH_ROUTE,
};
const MAX_FRAMEWORK_MESSAGE = 160;

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body',
  FST_ERR_BAD_URL: 'The address is not valid: it has a broken percent-encoding',
  FST_ERR_MAX_PARAM_LENGTH: STATUS_MESSAGES[414],
};

const isFrameworkError = (value: unknown): value is FrameworkError =>
  value instanceof Error && typeof (value as FrameworkError).statusCode === 'number';

/** Load shedding as the filter needs it (common/load-shedding): whether the pool refused a request, and the answer then. */
export interface BusyAnswers {
  poolRefusal(request: FastifyRequest): PoolBusyReason | undefined;
  /** 503 "busy" with Retry-After, counted. */
  refuse(request: FastifyRequest, reply: FastifyReply, reason: PoolBusyReason): FastifyReply;
}

/**
 * Fastify's `frameworkErrors`: what it refuses before routing (a broken or over-long address),
 * which neither a route nor the exception filter sees, and whose own wording quotes the URL back.
 */
export function answerFrameworkError(error: FrameworkError, request: FastifyRequest, reply: FastifyReply): void {
  void sendError(request, reply, error.statusCode ?? 400, (error.code && FRAMEWORK_MESSAGES[error.code]) || FRAMEWORK_FALLBACK[400]);
}

/**
 * Every error leaves as ApiErrorBody with a readable message and the request id. Unknown paths
 * outside /api get the SPA shell, so deep links such as /checkout?plan=2-month load.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  constructor(
    private readonly spaFallback: ((req: FastifyRequest, reply: FastifyReply) => unknown) | null,
    private readonly busy: BusyAnswers,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): unknown {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const request = ctx.getRequest<FastifyRequest>();
    if (isPoolBusy(exception)) return this.busy.refuse(request, reply, exception.reason);
    const { status, message } = this.describe(exception, request.url);
    // Saturation, not an outage nor a bug: the readable 503 "busy", counted, not logged as an
    // error, also where the code in between caught the pool's refusal and failed otherwise.
    const refusal = status >= 500 ? this.busy.poolRefusal(request) : undefined;
    if (refusal) return this.busy.refuse(request, reply, refusal);

    if (status === 404 && this.spaFallback && this.isPageRequest(request)) {
      return this.spaFallback(request, reply);
    }
    // Every 503 says when to come back: the database away, or a payment provider call that failed
    // (its own pool timing out in a rush as much as the provider down).
    if (status === Number(HttpStatus.SERVICE_UNAVAILABLE)) reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
    if (status === Number(HttpStatus.SERVICE_UNAVAILABLE) && isDatabaseUnavailable(exception)) {
      // An outage, not a bug: one warning line per request, without the stack.
      this.logger.warn({ path: loggablePath(request.url), reqId: request.id }, 'Database unavailable');
    } else if (status >= 500) {
      this.logger.error({ err: loggableError(exception), path: loggablePath(request.url), reqId: request.id }, 'Unhandled error');
    }
    return sendError(request, reply, status, message);
  }

  private describe(exception: unknown, url: string): { status: number; message: string } {
    const described = this.describeRaw(exception, url);
    return { status: described.status, message: STATUS_MESSAGES[described.status] ?? described.message };
  }

  private describeRaw(exception: unknown, url: string): { status: number; message: string } {
    // NestJS 12 hands Fastify's own 4xx errors (a refused static path, a body that is not JSON)
    // to the filters wrapped in an HttpException with their wording; the original is its cause.
    if (exception instanceof HttpException && isFrameworkError(exception.cause)) return this.describeRaw(exception.cause, url);
    if (exception instanceof HttpException) {
      const response = exception.getResponse();
      const raw = typeof response === 'string' ? response : (response as { message?: unknown }).message;
      const message = Array.isArray(raw) ? String(raw[0]) : typeof raw === 'string' ? raw : exception.message;
      if (exception instanceof NotFoundException && UNMATCHED_ROUTE.test(message)) return { status: 404, message: NO_SUCH_ROUTE };
      return { status: exception.getStatus(), message };
    }
    const err = exception as FrameworkError;
    if (err && typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      const known = err.code ? FRAMEWORK_MESSAGES[err.code] : undefined;
      const jsonError = err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY';
      if (known || jsonError) return { status: err.statusCode, message: known ?? 'The request body is not valid JSON' };
      const bare = err.message === STATUS_CODES[err.statusCode] || err.message.length > MAX_FRAMEWORK_MESSAGE || err.message.includes(url);
      return {
        status: err.statusCode,
        message: bare ? (FRAMEWORK_FALLBACK[err.statusCode] ?? 'The request could not be handled as sent') : err.message,
      };
    }
    if (err instanceof SyntaxError) return { status: 400, message: 'The request body is not valid JSON' };
    if (isDatabaseUnavailable(exception)) return { status: HttpStatus.SERVICE_UNAVAILABLE, message: UNAVAILABLE_MESSAGE };
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: SERVER_ERROR_MESSAGE };
  }

  private isPageRequest(request: FastifyRequest): boolean {
    return (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api');
  }
}
