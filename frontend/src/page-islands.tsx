import { StrictMode, type ReactElement } from 'react';
import type { Root } from 'react-dom/client';
import { initAnalytics, trackPageView } from './lib/analytics';
import { hydrateIslands, type IslandDefinition } from './lib/islands';
import { PageNavigation, type GoTo } from './lib/page-navigation';
import { initReferralTracking } from './lib/referral';

export const loadSpa = () => import('./app/spa');

/**
 * What a prerendered page runs once it has painted (its entry loads it: src/pages/registry.ts):
 * the start-up tracking, one page view, and its islands, hydrated one per task (in slices unless
 * `sliced` is false: `/`, whose islands are small and wait for the first frame). The router, the
 * query library and every other screen load only when an island moves on to another page: the
 * SPA then takes over without a page load (app/spa.tsx).
 */
export function startPage(islandList: readonly IslandDefinition[], { sliced = true }: { sliced?: boolean } = {}): void {
  initAnalytics();
  initReferralTracking();
  // The prerendered document carries the page's title (content/pages.ts), so the page ships none of it.
  trackPageView(window.location.pathname, document.title);

  let islands: Root[] = [];
  const goTo: GoTo = (path, options) => {
    const target = new URL(path, window.location.href);
    // The same page with another query (a token taken out of the address): no new page to open.
    if (options?.replace && target.pathname === window.location.pathname) {
      window.history.replaceState(window.history.state, '', `${target.pathname}${target.search}${target.hash}`);
      return;
    }
    loadSpa().then(
      ({ openSpa }) => openSpa(path, islands, options),
      // A chunk lost to a deploy: the same page by a full load.
      () => (options?.replace ? window.location.replace(path) : window.location.assign(path)),
    );
  };

  const wrap = (island: ReactElement) => (
    <StrictMode>
      <PageNavigation value={goTo}>{island}</PageNavigation>
    </StrictMode>
  );
  islands = hydrateIslands(islandList, wrap, { sliced });
}
