import { lazy } from 'react';
import { ROUTES } from '@contracts/routes';
import { pages } from '@/content/pages';
import { LazyRoutes, type LazyRoute } from './lazy-routes';
import { RoutePage } from './route-page';

/**
 * The funnel's screens. A first visit to `/` never runs the SPA (the prerendered page hydrates its
 * islands); the landing route serves visitors who come back to `/` from another screen. The admin
 * screens are another document (admin.html, app/admin/), with none of the funnel's tracking.
 */
const allRoutes: LazyRoute[] = [
  { path: ROUTES.landing, title: pages.landing.title, Screen: lazy(() => import('./routes/landing.route')) },
  { path: ROUTES.invitation, title: pages.invitation.title, Screen: lazy(() => import('./routes/invitation.route')) },
  { path: ROUTES.blackcard, title: pages.blackcard.title, Screen: lazy(() => import('./routes/blackcard.route')) },
  { path: ROUTES.upsell, title: pages.upsell.title, Screen: lazy(() => import('./routes/upsell.route')) },
  { path: ROUTES.blackcardUpsell, title: pages.blackcardUpsell.title, Screen: lazy(() => import('./routes/blackcard-upsell.route')) },
  { path: ROUTES.checkout, title: pages.checkout.title, Screen: lazy(() => import('./routes/checkout.route')) },
  { path: ROUTES.success, title: pages.success.title, Screen: lazy(() => import('./routes/success.route')) },
  { path: ROUTES.account, title: pages.account.title, Screen: lazy(() => import('./routes/account.route')) },
  { path: '*', title: pages.notFound.title, Screen: lazy(() => import('./routes/not-found.route')) },
];
/** Without the pages the site leaves out (site.json `pages`): their paths get the not-found screen. */
const lazyRoutes = allRoutes.filter((route) => !__PAGES_LEFT_OUT__.includes(route.path));

export function AppRoutes() {
  return <LazyRoutes routes={lazyRoutes} Frame={RoutePage} />;
}
