import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { ApiErrorBody } from '@contracts/api-types';

/** The API's error body, never cached: what every refused or failed request gets. */
export function sendError(request: FastifyRequest, reply: FastifyReply, status: number, message: string): FastifyReply {
  const body: ApiErrorBody = { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message, requestId: String(request.id) };
  return reply.status(status).header('cache-control', 'no-store').send(body);
}
