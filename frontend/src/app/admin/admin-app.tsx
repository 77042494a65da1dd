import { lazy } from 'react';
import { ADMIN_ROUTES } from '@contracts/route-table';
import { ROUTES } from '@contracts/routes';
import { pages } from '@/content/pages';
import { LazyRoutes, type LazyRoute, type RouteFrame } from '../lazy-routes';
import { useRouteFrame } from '../route-frame';
import { ScreenProviders } from '../screen-providers';

const adminRoutes: LazyRoute[] = [
  { path: ROUTES.admin, title: pages.admin.title, Screen: lazy(() => import('../routes/admin-home.route')) },
  { path: ADMIN_ROUTES.login, title: pages.adminLogin.title, Screen: lazy(() => import('../routes/admin-login.route')) },
  {
    path: ADMIN_ROUTES.testimonials,
    title: pages.adminTestimonials.title,
    Screen: lazy(() => import('../routes/admin-testimonials.route')),
  },
  { path: ADMIN_ROUTES.orders, title: pages.adminOrders.title, Screen: lazy(() => import('../routes/admin-orders.route')) },
  { path: ADMIN_ROUTES.coupons, title: pages.adminCoupons.title, Screen: lazy(() => import('../routes/admin-coupons.route')) },
  { path: ADMIN_ROUTES.revenue, title: pages.adminRevenue.title, Screen: lazy(() => import('../routes/admin-revenue.route')) },
  {
    path: ADMIN_ROUTES.sandboxClock,
    title: pages.adminSandboxClock.title,
    Screen: lazy(() => import('../routes/admin-sandbox-clock.route')),
  },
  { path: '*', title: pages.notFound.title, Screen: lazy(() => import('./outside-admin.route')) },
];

/** Admin pages are not the funnel: they set their title, and record no page view. */
const AdminFrame: RouteFrame = ({ title, children }) => {
  useRouteFrame(title);
  return children;
};

/** The admin document (admin.html): the admin screens, and nothing of the funnel's analytics, pixel or affiliate code. */
export function AdminApp() {
  return (
    <ScreenProviders>
      <LazyRoutes routes={adminRoutes} Frame={AdminFrame} />
    </ScreenProviders>
  );
}
