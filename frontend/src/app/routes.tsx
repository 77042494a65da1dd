import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { ROUTES } from '@contracts/routes';
import { common, pages } from '@/content/pages';
import { RouteErrorBoundary } from './route-error-boundary';
import { RoutePage } from './route-page';

interface LazyRoute {
  path: string;
  title: string;
  Screen: LazyExoticComponent<ComponentType>;
}

/**
 * Every route is a separate chunk, so each screen ships only its own code. A first visit to `/` never
 * runs the SPA (the prerendered page hydrates its islands); the landing route serves visitors who
 * come back to `/` from another screen.
 */
const lazyRoutes: LazyRoute[] = [
  { path: ROUTES.landing, title: pages.landing.title, Screen: lazy(() => import('./routes/landing.route')) },
  { path: ROUTES.invitation, title: pages.invitation.title, Screen: lazy(() => import('./routes/invitation.route')) },
  { path: ROUTES.blackcard, title: pages.blackcard.title, Screen: lazy(() => import('./routes/blackcard.route')) },
  { path: ROUTES.upsell, title: pages.upsell.title, Screen: lazy(() => import('./routes/upsell.route')) },
  { path: ROUTES.blackcardUpsell, title: pages.blackcardUpsell.title, Screen: lazy(() => import('./routes/blackcard-upsell.route')) },
  { path: ROUTES.checkout, title: pages.checkout.title, Screen: lazy(() => import('./routes/checkout.route')) },
  { path: ROUTES.success, title: pages.success.title, Screen: lazy(() => import('./routes/success.route')) },
  { path: ROUTES.admin, title: pages.admin.title, Screen: lazy(() => import('./routes/admin-home.route')) },
  { path: ROUTES.adminLogin, title: pages.adminLogin.title, Screen: lazy(() => import('./routes/admin-login.route')) },
  { path: ROUTES.adminTestimonials, title: pages.adminTestimonials.title, Screen: lazy(() => import('./routes/admin-testimonials.route')) },
  { path: '*', title: pages.notFound.title, Screen: lazy(() => import('./routes/not-found.route')) },
];

function RouteFallback() {
  return (
    <div className="screen" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{common.routeLoading}</span>
    </div>
  );
}

/** Route matching ignores case: React Router's routes are case-insensitive unless marked caseSensitive. */
export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary key={pathname}>
      <Routes>
        {lazyRoutes.map(({ path, title, Screen }) => (
          <Route
            key={path}
            path={path}
            element={
              <RoutePage title={title}>
                <Suspense fallback={<RouteFallback />}>
                  <Screen />
                </Suspense>
              </RoutePage>
            }
          />
        ))}
      </Routes>
    </RouteErrorBoundary>
  );
}
