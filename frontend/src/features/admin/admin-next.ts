import { ADMIN_ROUTES, isAppRoute } from '@contracts/route-table';
import { isAdminPath, ROUTES } from '@contracts/routes';

/**
 * Where to go after signing in: the `next` parameter when it is a same-origin /admin path (never
 * another site, a protocol-relative //host, or the sign-in page itself), else the admin landing.
 */
export function safeAdminNext(raw: string | null, origin: string = window.location.origin): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return ROUTES.admin;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return ROUTES.admin;
  }
  const path = url.pathname.toLowerCase();
  if (url.origin !== origin || !isAdminPath(path) || path.replace(/\/+$/, '') === ADMIN_ROUTES.login) return ROUTES.admin;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page, remembering the admin page that asked for it. */
export function loginPathFor(location: { pathname: string; search: string; hash: string }): string {
  return `${ADMIN_ROUTES.login}?next=${encodeURIComponent(`${location.pathname}${location.search}${location.hash}`)}`;
}

/** SPA pages open in the router; server pages under /admin (the queue dashboard) need a full load. */
export function isSpaPath(path: string): boolean {
  return isAppRoute(new URL(path, 'http://x').pathname);
}
