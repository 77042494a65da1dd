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
} as const;

const KNOWN = new Set<string>(Object.values(ROUTES));

/** Route matching ignores case, and a trailing slash names the same page. */
export function isAppRoute(pathname: string): boolean {
  const path = pathname.toLowerCase().replace(/(.)\/+$/, '$1');
  return KNOWN.has(path);
}

/** The admin area (its own document, admin.html, and its own CSP): /admin and every path below it, in any case. */
export function isAdminPath(pathname: string): boolean {
  const path = pathname.toLowerCase();
  return path === ROUTES.admin || path.startsWith(`${ROUTES.admin}/`);
}
