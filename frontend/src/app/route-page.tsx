import { useCallback, useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { trackPageView } from '@/lib/analytics';
import { PageNavigation, type GoTo } from '@/lib/page-navigation';
import { useRouteFrame } from './route-frame';

/**
 * Wraps every route of the funnel: sets the document title and records one page view per route
 * change. The reported path leaves out the query string, which carries e-mail and name in the funnel.
 * The screens that are also islands of a prerendered page move on through PageNavigation, which
 * inside the SPA is the router.
 */
export function RoutePage({ title, children }: { title: string; children: ReactNode }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useRouteFrame(title);

  useEffect(() => {
    trackPageView(pathname, title);
  }, [pathname, title]);

  const goTo = useCallback<GoTo>((path, options) => void navigate(path, { replace: options?.replace }), [navigate]);
  return <PageNavigation value={goTo}>{children}</PageNavigation>;
}
