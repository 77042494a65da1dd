import { lazy, Suspense, useSyncExternalStore } from 'react';
import { analyticsEnabled } from '@/lib/analytics';
import { isConsentBannerOpen, subscribeToConsent } from '@/lib/analytics/consent';
import { defineIsland } from '@/lib/islands';
import { useHydrated } from '@/lib/use-hydrated';

// Lazy: a site without analytics ids, or a visitor who has answered, never loads their code.
const ConsentBanner = /* @__PURE__ */ lazy(() => import('./consent-banner'));
const ConsentSettingsFooter = /* @__PURE__ */ lazy(() => import('./consent-settings-footer'));

/**
 * Mounts the banner while the visitor has not answered, or asks to change the answer, on a site
 * with analytics ids (known only in the browser: the server's settings). Never in the prerendered
 * markup or during hydration: the banner code (its copy too) loads only for visitors who need it.
 */
export function ConsentBannerHost() {
  const open = useSyncExternalStore(subscribeToConsent, isConsentBannerOpen, () => false);
  return open && analyticsEnabled ? (
    <Suspense fallback={null}>
      <ConsentBanner />
    </Suspense>
  ) : null;
}

/**
 * The "Cookie settings" footer, added after hydration on a site with analytics ids: it sits below
 * everything else, so its late arrival moves nothing, and its code stays out of the landing bundle.
 */
export function ConsentSettingsFooterHost() {
  const hydrated = useHydrated();
  return hydrated && analyticsEnabled ? (
    <Suspense fallback={null}>
      <ConsentSettingsFooter />
    </Suspense>
  ) : null;
}

/** The prerendered landing page's consent banner (first in the document, like the SPA's) and its footer. */
export const consentBannerIsland = defineIsland('consent-banner', () => <ConsentBannerHost />);
export const consentSettingsIsland = defineIsland('consent-settings', () => <ConsentSettingsFooterHost />);
