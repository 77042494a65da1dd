import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { trackPageView } from '@/lib/analytics';
import { useRouteFrame } from './route-frame';

/**
 * Wraps every route of the funnel: sets the document title and records one page view per route
 * change. The reported path leaves out the query string, which carries e-mail and name in the funnel.
 */
export function RoutePage({ title, children }: { title: string; children: ReactNode }) {
  const { pathname } = useLocation();
  useRouteFrame(title);

  useEffect(() => {
    trackPageView(pathname, title);
  }, [pathname, title]);

  return children;
}
