import rateLimit from '@fastify/rate-limit';
import helmet from 'helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { RateLimitConfig, ServerConfig } from '@core/config/config-sections';
import { isAdminPath } from '@contracts/routes';
import type { SiteSettings } from '@contracts/site-settings';
import { SharedWindows } from './shared-windows';

/**
 * The funnel's own policy: Stripe (card element) and the video host's privacy-enhanced player
 * always; each analytics or affiliate vendor's hosts only while its id is set (THIRD_PARTY_HOSTS).
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", 'https://js.stripe.com'],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'https://api.stripe.com'],
  frameSrc: ['https://js.stripe.com', 'https://hooks.stripe.com', 'https://www.youtube-nocookie.com'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/** What each third party the pages load by id needs: its script's host and where it reports (images: any https). */
const THIRD_PARTY_HOSTS: Record<'ga4Id' | 'metaPixelId' | 'firstPromoterId', { scriptSrc: string[]; connectSrc: string[] }> = {
  ga4Id: {
    scriptSrc: ['https://www.googletagmanager.com'],
    connectSrc: [
      'https://www.google-analytics.com',
      'https://*.google-analytics.com',
      'https://*.analytics.google.com',
      'https://stats.g.doubleclick.net',
      'https://www.google.com',
    ],
  },
  metaPixelId: { scriptSrc: ['https://connect.facebook.net'], connectSrc: ['https://www.facebook.com'] },
  firstPromoterId: { scriptSrc: ['https://cdn.firstpromoter.com'], connectSrc: ['https://t.firstpromoter.com'] },
};

/**
 * The public pages' policy for these settings: the third parties whose ids are set, and the
 * build's inline scripts by their hashes (`inlineScripts`, spa.ts `inlineScriptHashes`).
 */
function siteCspDirectives(settings: SiteSettings, inlineScripts: readonly string[]): typeof CSP_DIRECTIVES {
  const vendors = (Object.keys(THIRD_PARTY_HOSTS) as Array<keyof typeof THIRD_PARTY_HOSTS>).filter((id) => settings[id] !== null);
  return {
    ...CSP_DIRECTIVES,
    scriptSrc: [...CSP_DIRECTIVES.scriptSrc, ...vendors.flatMap((id) => THIRD_PARTY_HOSTS[id].scriptSrc), ...inlineScripts],
    connectSrc: [...CSP_DIRECTIVES.connectSrc, ...vendors.flatMap((id) => THIRD_PARTY_HOSTS[id].connectSrc)],
  };
}

/**
 * The admin pages (/admin and below: the admin document and the queue dashboard) load no third
 * party at all: scripts, styles, images and connections of this origin only. Inline styles stay
 * allowed for the toast and dashboard components; inline scripts do not.
 */
const ADMIN_CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/**
 * Route option for public write endpoints: `@RouteConfig(PUBLIC_WRITE_LIMIT)` puts the route under
 * the per-client limit (RATE_LIMIT_WRITES per RATE_LIMIT_WINDOW_MS) registered below.
 */
export const PUBLIC_WRITE_LIMIT = { rateLimit: {} };

/**
 * `pages`: the run-time settings the public pages carry (site-settings.ts), whose third parties
 * the policy lets in, and the CSP hashes of the inline scripts the built public pages run (spa.ts
 * `inlineScriptHashes`); no other inline script may run.
 */
export async function applySecurity(
  app: NestFastifyApplication,
  server: ServerConfig,
  limits: RateLimitConfig,
  pages: { settings: SiteSettings; inlineScripts: readonly string[] },
): Promise<void> {
  const publicUrl = server.PUBLIC_URL;
  // Counted in Redis so every API instance shares one allowance per client (per instance only while Redis is away).
  await app.register(rateLimit, {
    global: false,
    store: app.get(SharedWindows).fastifyStore('writes'),
    max: limits.RATE_LIMIT_WRITES,
    timeWindow: limits.RATE_LIMIT_WINDOW_MS,
    errorResponseBuilder: () => ({
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Too many requests from this device. Please wait a minute and try again.',
    }),
  });
  // Helmet built once per policy and run on every response. (@fastify/helmet builds it again for
  // each request, re-parsing the CSP every time: a few percent of the API's CPU under load.)
  const siteHeaders = helmet({
    contentSecurityPolicy: { directives: siteCspDirectives(pages.settings, pages.inlineScripts) },
    // Stripe's and YouTube's iframes are cross-origin and do not send CORP headers.
    crossOriginEmbedderPolicy: false,
  });
  const adminHeaders = helmet({ contentSecurityPolicy: { directives: ADMIN_CSP_DIRECTIVES } });
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      const securityHeaders = isAdminPath(request.url.split(/[?#]/, 1)[0]) ? adminHeaders : siteHeaders;
      securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
    });
  // A list (not a string) so other origins get no Access-Control-Allow-Origin header at all. Not
  // strict: an OPTIONS that is no preflight would get a bare text/plain 400, the only non-JSON error.
  app.enableCors({ origin: [new URL(publicUrl).origin], credentials: true, strictPreflight: false });
}
