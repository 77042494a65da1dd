import { StrictMode, type ReactElement } from 'react';
import type { Root } from 'react-dom/client';
import { landingIslands } from './app/landing/landing-islands';
import { pages } from './content/pages';
import { initAnalytics, trackPageView } from './lib/analytics';
import { hydrateIslands } from './lib/islands';
import { CHECKOUT_SECTION_ID, followLeadFormLinks } from './lib/landing-anchors';
import { PageNavigation } from './lib/page-navigation';
import { initReferralTracking } from './lib/referral';

/**
 * What `/` runs once it has painted (src/landing-client.ts loads it): hydrates the islands and
 * nothing else. The router, the query library and every other screen load only when a saved
 * lead moves on to checkout.
 */
initAnalytics();
initReferralTracking();
trackPageView(window.location.pathname, pages.landing.title);
followLeadFormLinks();

const loadSpa = () => import('./app/spa');

let islands: Root[] = [];
const continueInSpa = (path: string) => {
  loadSpa().then(
    ({ openSpa }) => openSpa(path, islands),
    // A chunk lost to a deploy: the same page by a full load.
    () => window.location.assign(path),
  );
};

const wrap = (island: ReactElement) => (
  <StrictMode>
    <PageNavigation value={continueInSpa}>{island}</PageNavigation>
  </StrictMode>
);
islands = hydrateIslands(landingIslands, wrap);

// Someone filling in the form is likely to continue: fetch the SPA while they type, not after they submit.
document.getElementById(CHECKOUT_SECTION_ID)?.addEventListener('focusin', () => void loadSpa().catch(() => undefined), { once: true });
