import { isAdminPath, ROUTES, routeOf } from './routes';

/** The admin screens' paths, below ROUTES.admin (spec section 2's /admin/testimonials and the operators' own). */
export const ADMIN_ROUTES = {
  login: '/admin/login',
  testimonials: '/admin/testimonials',
  orders: '/admin/orders',
  coupons: '/admin/coupons',
  revenue: '/admin/revenue',
  sandboxClock: '/admin/sandbox-clock',
} as const;

/** Every page path the app answers: the funnel's and the admin's. The server answers 404 for any other page path. */
const KNOWN = new Set<string>([...Object.values(ROUTES), ...Object.values(ADMIN_ROUTES)]);

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
