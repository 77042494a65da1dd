import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the prerendered markup and during hydration, true once React owns the page: controls
 * that need JavaScript stay disabled until they work.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
