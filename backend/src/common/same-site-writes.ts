import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { sendError } from './error-body';

/** The route prefixes whose writes only this site's own pages may send: sign-in and everything signed in. */
const GUARDED_PREFIXES = ['/api/account/', '/api/admin/'];
const GUARDED_EXACT = new Set(['/api/account', '/api/admin']);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What Sec-Fetch-Site says of a request this site's own page (or the person, typing) made. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

const FOREIGN_ORIGIN_MESSAGE = 'This request came from another website and was refused. Please use this site directly.';
const JSON_ONLY_MESSAGE = 'Send the request body as JSON (Content-Type: application/json)';

const isGuardedRoute = (route: string | undefined): boolean =>
  route !== undefined && (GUARDED_EXACT.has(route) || GUARDED_PREFIXES.some((prefix) => route.startsWith(prefix)));

/**
 * Whether a browser says the request comes from a page of another site. A browser sends Origin
 * (or at least Sec-Fetch-Site) on every cross-site POST; a request with neither is no browser's
 * (curl, a server), which cookies alone cannot make act for a visitor, so it passes.
 */
export function comesFromAnotherSite(headers: IncomingHttpHeaders, ownOrigins: readonly string[]): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && !OWN_FETCH_SITES.has(site)) return true;
  const origin = headers.origin;
  return origin !== undefined && !ownOrigins.includes(origin);
}

/**
 * Whether the body is JSON. A request with no body and no Content-Type passes (a bare logout): an
 * HTML form always sends a Content-Type, and only JSON needs the CORS preflight a foreign page
 * cannot pass.
 */
export function isJsonOrBodiless(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  if (type === undefined) return headers['transfer-encoding'] === undefined && (headers['content-length'] ?? '0') === '0';
  return type.split(';', 1)[0].trim().toLowerCase() === 'application/json';
}

/**
 * Login CSRF and its kin: a page elsewhere must not sign a visitor in (as the attacker), out, or
 * change anything through /api/account or /api/admin, whatever cookies the browser would send. So
 * every write there must come from this site (403) and carry JSON (415), which no HTML form can.
 * Runs before the body is read. This site is PUBLIC_URL's origin or the address the request was
 * sent to (the dev server's proxy, 127.0.0.1 beside localhost): a foreign page cannot set Host and
 * Origin alike.
 */
export function refuseForeignWrites(fastify: FastifyInstance, publicUrl: string): void {
  const publicOrigin = new URL(publicUrl).origin;
  fastify.addHook('onRequest', async (request: FastifyRequest, reply) => {
    if (SAFE_METHODS.has(request.method) || !isGuardedRoute(request.routeOptions.url)) return;
    const ownOrigins = [publicOrigin, `${request.protocol}://${request.host}`];
    if (comesFromAnotherSite(request.headers, ownOrigins)) return sendError(request, reply, 403, FOREIGN_ORIGIN_MESSAGE);
    if (!isJsonOrBodiless(request.headers)) return sendError(request, reply, 415, JSON_ONLY_MESSAGE);
  });
}
