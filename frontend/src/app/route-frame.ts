import { useEffect } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router-dom';

/** What every route of either document (the funnel's, the admin's) does on arrival: its title, and the top of the page after a link. */
export function useRouteFrame(title: string): void {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    document.title = title;
  }, [title]);

  useEffect(() => {
    // A link to a new page starts at its top; back/forward and first loads keep the browser's position.
    if (navigationType === NavigationType.Push && !hash) window.scrollTo(0, 0);
  }, [pathname, hash, navigationType]);
}
