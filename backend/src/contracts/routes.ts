/**
 * The funnel's page paths (spec route table) that code links to, and the admin area's root. Which
 * pages the server answers it learns from the build (./route-table.ts `BUILT_PAGES_FILE`). The
 * admin screens' own paths are in ./route-table.ts, with the checks of a whole path: every buyer
 * page ships this module, and no buyer page needs to know the admin's screens.
 */
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
} as const;

/** Route matching ignores case, and a trailing slash names the same page. */
export function routeOf(pathname: string): string {
  return pathname.toLowerCase().replace(/(.)\/+$/, '$1');
}

/** The admin area (its own document, admin.html, and its own CSP): /admin and every path below it, in any case. */
export function isAdminPath(pathname: string): boolean {
  const path = pathname.toLowerCase();
  return path === ROUTES.admin || path.startsWith(`${ROUTES.admin}/`);
}
