import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * The page's query string on a prerendered page: empty in the prerendered markup and during
 * hydration (the server knows no visitor), the address's once React owns the page. Inside the SPA
 * the routes read the router's location instead.
 */
export function usePageSearch(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.search,
    () => '',
  );
}
