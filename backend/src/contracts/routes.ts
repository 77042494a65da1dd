/** The SPA's page paths (spec route table). The server answers 404 for any other page path. */
export const ROUTES = {
  landing: '/',
  invitation: '/invitation',
  blackcard: '/blackcard',
  upsell: '/upsell',
  blackcardUpsell: '/blackcard-upsell',
  checkout: '/checkout',
  success: '/success',
  account: '/account',
  admin: '/admin',
  adminLogin: '/admin/login',
  adminTestimonials: '/admin/testimonials',
  adminOrders: '/admin/orders',
  adminCoupons: '/admin/coupons',
  adminRevenue: '/admin/revenue',
  adminSandboxClock: '/admin/sandbox-clock',
} as const;

const KNOWN = new Set<string>(Object.values(ROUTES));

/** Route matching ignores case, and a trailing slash names the same page. */
export function routeOf(pathname: string): string {
  return pathname.toLowerCase().replace(/(.)\/+$/, '$1');
}

export function isAppRoute(pathname: string): boolean {
  return KNOWN.has(routeOf(pathname));
}

/**
 * Where the web build writes a funnel page's own prerendered document, if it has one: `/` is
 * index.html, another page `pages/<page>.html` (frontend/vite.config.ts lists them). Null for the
 * admin area and unknown paths. Every page without one gets the SPA's shell (spa.html).
 */
export function prerenderedDocument(pathname: string): string | null {
  const route = routeOf(pathname);
  if (!KNOWN.has(route) || isAdminPath(route)) return null;
  return route === ROUTES.landing ? 'index.html' : `pages${route}.html`;
}

/** The admin area (its own document, admin.html, and its own CSP): /admin and every path below it, in any case. */
export function isAdminPath(pathname: string): boolean {
  const path = pathname.toLowerCase();
  return path === ROUTES.admin || path.startsWith(`${ROUTES.admin}/`);
}
