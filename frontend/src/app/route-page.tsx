import { useEffect, type ReactNode } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router-dom';
import { trackPageView } from '@/lib/analytics';

/**
 * Wraps every route: sets the document title and records one page view per route change. The
 * reported path leaves out the query string, which carries e-mail and name in the funnel.
 */
export function RoutePage({ title, children }: { title: string; children: ReactNode }) {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    document.title = title;
    trackPageView(pathname, title);
  }, [pathname, title]);

  useEffect(() => {
    // A link to a new page starts at its top; back/forward and first loads keep the browser's position.
    if (navigationType === NavigationType.Push && !hash) window.scrollTo(0, 0);
  }, [pathname, hash, navigationType]);

  return children;
}
