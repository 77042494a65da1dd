import { Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { common } from '@/content/pages';
import { RouteErrorBoundary } from './route-error-boundary';

export interface LazyRoute {
  path: string;
  title: string;
  Screen: LazyExoticComponent<ComponentType>;
}

/** What wraps each screen: the funnel's records a page view, the admin's does not. */
export type RouteFrame = ComponentType<{ title: string; children: ReactNode }>;

function RouteFallback() {
  return (
    <div className="screen" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{common.routeLoading}</span>
    </div>
  );
}

/**
 * Every route is a separate chunk, so each screen ships only its own code. Route matching ignores
 * case: React Router's routes are case-insensitive unless marked caseSensitive.
 */
export function LazyRoutes({ routes, Frame }: { routes: readonly LazyRoute[]; Frame: RouteFrame }) {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary key={pathname}>
      <Routes>
        {routes.map(({ path, title, Screen }) => (
          <Route
            key={path}
            path={path}
            element={
              <Frame title={title}>
                <Suspense fallback={<RouteFallback />}>
                  <Screen />
                </Suspense>
              </Frame>
            }
          />
        ))}
      </Routes>
    </RouteErrorBoundary>
  );
}
