import { toastIsland } from '@/components/toast/toast-host';
import { consentBannerIsland } from '@/features/consent/components/consent-host';
import { Island } from '@/lib/islands';
import { LandingPage } from './landing-page';

/**
 * What `#root` holds on the prerendered `/`: the page plus the consent banner and the toast area
 * that the SPA's providers (app/providers.tsx) place around every route, in the same order. The
 * banner's island is always there (empty): whether the site has analytics is known at run time.
 */
export function LandingDocument() {
  return (
    <>
      <Island of={consentBannerIsland} />
      <LandingPage />
      <Island of={toastIsland} />
    </>
  );
}
