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

/**
 * Every page path the app's code names: the funnel's (ROUTES) and the admin's. The server answers
 * the admin's and the buyer pages its build lists (`BUILT_PAGES_FILE`), 404 for any other path.
 */
const KNOWN = new Set<string>([...Object.values(ROUTES), ...Object.values(ADMIN_ROUTES)]);

export function isAppRoute(pathname: string): boolean {
  return KNOWN.has(routeOf(pathname));
}

/**
 * The buyer pages' routes, as the web build lists them in its output (a JSON array, written from
 * frontend/src/pages/registry.ts less the pages the site leaves out): the server learns from it
 * which page paths it answers (backend/src/common/built-pages.ts), so a new page needs no route
 * here.
 */
export const BUILT_PAGES_FILE = 'buyer-pages.json';

/** A buyer page's route: `/` or one lower-case name (the registry's routes, as `routeOf` gives them). */
const PAGE_ROUTE = /^\/[a-z0-9-]*$/;

/**
 * Where the web build writes a funnel page's own prerendered document: `/` is index.html, another
 * page `pages/<page>.html`. Null for the admin area and paths no page could have. The server sends
 * it only for the routes its build lists; every other page gets the SPA's shell (spa.html).
 */
export function prerenderedDocument(pathname: string): string | null {
  const route = routeOf(pathname);
  if (!PAGE_ROUTE.test(route) || isAdminPath(route)) return null;
  return route === ROUTES.landing ? 'index.html' : `pages${route}.html`;
}
