import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isAdminPath, isAppRoute } from '@contracts/routes';

export type SpaFallback = (req: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * Serves the built SPA: `/` is the prerendered landing page (index.html), hashed assets are
 * cached for a year, /admin paths get the admin document (admin.html) and any other page path
 * gets the funnel's client shell (spa.html).
 */
export async function serveSpa(app: NestFastifyApplication, staticDir: string): Promise<SpaFallback | null> {
  const root = resolve(staticDir);
  if (!existsSync(resolve(root, 'index.html'))) {
    new Logger('Spa').warn(`No built SPA in ${root}; run "npm run build:web". Serving the API only.`);
    return null;
  }
  // Text assets go out gzip/brotli compressed; tiny API bodies stay under the 1 KB threshold.
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'] });
  await app.register(fastifyStatic, {
    root,
    wildcard: true,
    index: ['index.html'],
    // The web build writes .br and .gz next to each text asset (maximum compression, once).
    preCompressed: true,
    setHeaders: (res, path) => {
      res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const shell = existsSync(resolve(root, 'spa.html')) ? 'spa.html' : 'index.html';
  // Unknown paths still get a document (it renders the 404 card) but with a 404 status for crawlers.
  return (req, reply) => {
    const path = new URL(req.url, 'http://x').pathname;
    return reply
      .status(isAppRoute(path) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .sendFile(isAdminPath(path) ? 'admin.html' : shell);
  };
}
