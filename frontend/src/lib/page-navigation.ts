import { createContext } from 'react';

interface GoToOptions {
  /** Replace the current history entry instead of adding one (a redirect such as /blackcard's denial). */
  replace?: boolean;
}

/**
 * How an island of a prerendered page moves on to another page. Inside the SPA it is the router
 * (app/route-page.tsx); on a prerendered page the islands let the SPA take over
 * (src/page-islands.tsx). A plain page load is the fallback, and is always correct, only slower.
 */
export type GoTo = (path: string, options?: GoToOptions) => void;

export const PageNavigation = createContext<GoTo>((path, options) =>
  options?.replace ? window.location.replace(path) : window.location.assign(path),
);
