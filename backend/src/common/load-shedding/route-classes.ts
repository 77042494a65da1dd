/**
 * Which requests keep priority when the API is saturated, highest first:
 * - `money`: a buyer finishing a purchase (confirming the card, the subscription or a one-click
 *   upgrade, or learning whether they paid) and the provider telling us so. Work already invested
 *   in them is lost if they are refused, so they are refused last.
 * - `checkout`: a buyer starting one (the payment or setup intent). It may take any connection,
 *   but joins no long line for one, and is refused as soon as `standard` when the event loop
 *   falls behind: past capacity new checkouts are turned away before anyone types a card, and the
 *   purchases already started still finish.
 * - `standard`: everything else under /api (leads, the invitation gate, the beacon, accounts,
 *   admin), refused first.
 * - `exempt`: never refused here (health checks, metrics, the site's files, unknown addresses).
 */
export type RequestClass = 'money' | 'checkout' | 'standard' | 'exempt';

/** Route templates (method and Fastify's url, global prefix included) that finish a purchase. */
export const MONEY_ROUTES: readonly string[] = [
  'POST /api/confirm-subscription',
  'POST /api/one-click',
  'GET /api/verify-payment/:id',
  'GET /api/verify-subscription/:id',
  // Stripe's (and, in sandbox mode, the worker's) event deliveries. A 503 here loses nothing:
  // Stripe retries every non-2xx delivery with backoff for up to three days, and the sandbox's
  // delivery job retries likewise; they still come before leads, so payments settle first.
  'POST /api/webhooks/stripe',
  // The sandbox's card confirmation, what Stripe.js would do against Stripe.
  'POST /api/sandbox/confirm-payment',
  'POST /api/sandbox/confirm-setup',
  'POST /api/sandbox/next-action',
  'GET /api/sandbox/authenticate',
  'POST /api/sandbox/authenticate',
];

/** Route templates that start a purchase: the checkout's configuration, its intent, a one-click offer's terms. */
export const CHECKOUT_ROUTES: readonly string[] = [
  'GET /api/payments/config',
  'POST /api/create-payment-intent',
  'POST /api/create-setup-intent',
  'GET /api/one-click',
];

/** Routes that must answer even when the API is saturated: an orchestrator reads them. */
const EXEMPT_ROUTES: readonly string[] = ['GET /api/health', 'GET /api/health/live', 'GET /api/metrics'];

const MONEY = new Set(MONEY_ROUTES);
const CHECKOUT = new Set(CHECKOUT_ROUTES);
const EXEMPT = new Set(EXEMPT_ROUTES);

/** The class of a request by its matched route template (undefined: no route matched). */
export function requestClass(method: string, routeUrl: string | undefined): RequestClass {
  if (routeUrl === undefined || !routeUrl.startsWith('/api/')) return 'exempt';
  const key = `${method === 'HEAD' ? 'GET' : method} ${routeUrl}`;
  if (MONEY.has(key)) return 'money';
  if (CHECKOUT.has(key)) return 'checkout';
  return EXEMPT.has(key) ? 'exempt' : 'standard';
}
