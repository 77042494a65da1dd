import helmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * The funnel loads exactly these third parties: Stripe (card element), the video host's
 * privacy-enhanced player, Google Analytics / Meta pixel and the affiliate script when configured.
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", 'https://js.stripe.com', 'https://www.googletagmanager.com', 'https://connect.facebook.net', 'https://cdn.firstpromoter.com'],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: [
    "'self'",
    'https://api.stripe.com',
    'https://www.google-analytics.com',
    'https://*.google-analytics.com',
    'https://*.analytics.google.com',
    'https://www.facebook.com',
    'https://t.firstpromoter.com',
    'https://stats.g.doubleclick.net',
    'https://www.google.com',
  ],
  frameSrc: ['https://js.stripe.com', 'https://hooks.stripe.com', 'https://www.youtube-nocookie.com'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

export async function applySecurity(app: NestFastifyApplication, publicUrl: string): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { directives: CSP_DIRECTIVES },
    // Stripe's and YouTube's iframes are cross-origin and do not send CORP headers.
    crossOriginEmbedderPolicy: false,
  });
  // A list (not a string) so other origins get no Access-Control-Allow-Origin header at all.
  app.enableCors({ origin: [new URL(publicUrl).origin], credentials: true });
}
