import { PayloadTooLargeException } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { PUBLIC_WRITE_LIMIT } from '../../../common/security';

/** Route config flag: `@RouteConfig({ rawBody: true })` keeps the request's exact bytes. */
export const KEEP_RAW_BODY = { rawBody: true };

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
  }
}

/** What a webhook route accepts: its body limit, and whether each client is held to the public-write limit. */
export interface WebhookRouteLimits {
  bodyLimitBytes: number;
  perClientLimit: boolean;
}

/**
 * Routes flagged with KEEP_RAW_BODY (webhooks) get their own body limit and, with
 * `perClientLimit`, the per-client limit of every public write (PUBLIC_WRITE_LIMIT). An onRoute
 * hook, so it must be added before the rate-limit plugin and before the application registers its
 * routes (before `init`/`listen`).
 */
export function limitRawBodyRoutes(fastify: FastifyInstance, limits: WebhookRouteLimits): void {
  fastify.addHook('onRoute', (route) => {
    if (!(route.config as { rawBody?: boolean } | undefined)?.rawBody) return;
    route.bodyLimit = limits.bodyLimitBytes;
    if (limits.perClientLimit) route.config = { ...route.config, ...PUBLIC_WRITE_LIMIT };
  });
}

/**
 * Webhook signatures are computed over the exact bytes sent. For routes flagged with
 * KEEP_RAW_BODY only, the body is buffered (within the route's body limit) before the JSON parser
 * runs and kept on `request.rawBody`; every other route is untouched.
 */
export function keepRawBodies(fastify: FastifyInstance, limitBytes: number): void {
  fastify.addHook('preParsing', async (request: FastifyRequest, reply, payload) => {
    const config = request.routeOptions.config as { rawBody?: boolean } | undefined;
    if (!config?.rawBody) return payload;
    // A declared length over the limit is refused before reading a byte, so the client hears the
    // 413 before it uploads the rest; the unread body is why the connection then closes.
    if (Number(request.headers['content-length']) > limitBytes) {
      reply.header('connection', 'close');
      throw new PayloadTooLargeException('The webhook body is too large.');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buffer.length;
      if (size > limitBytes) {
        // The rest of the body stays unread on the socket: reused, it would be taken for the next request.
        reply.header('connection', 'close');
        throw new PayloadTooLargeException('The webhook body is too large.');
      }
      chunks.push(buffer);
    }
    request.rawBody = Buffer.concat(chunks);
    return Readable.from([request.rawBody]);
  });
}
