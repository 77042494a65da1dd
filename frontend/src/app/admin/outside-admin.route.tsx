import { useEffect } from 'react';
import { createPath, useLocation } from 'react-router-dom';
import { isAdminPath } from '@contracts/routes';
import NotFoundRoute from '../routes/not-found.route';

/**
 * A path the admin screens do not know. A link from an admin screen to a public page (the 404
 * card's 'Back to home') needs the funnel's document, so it becomes a page load; loaded directly
 * (or under /admin), the path gets the 404 card.
 */
export default function OutsideAdminRoute() {
  const location = useLocation();
  // The first location of the document has the key 'default'; every navigation gets a new one.
  const leaving = location.key !== 'default' && !isAdminPath(location.pathname);
  useEffect(() => {
    if (leaving) window.location.replace(createPath(location));
  }, [leaving, location]);
  return leaving ? null : <NotFoundRoute />;
}
