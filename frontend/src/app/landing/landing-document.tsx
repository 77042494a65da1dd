import { toastIsland } from '@/components/toast/toast-host';
import { consentBannerIsland } from '@/features/consent/components/consent-host';
import { analyticsEnabled } from '@/lib/analytics';
import { Island } from '@/lib/islands';
import { LandingPage } from './landing-page';

/**
 * What `#root` holds on the prerendered `/`: the page plus the consent banner and the toast area
 * that the SPA's providers (app/providers.tsx) place around every route, in the same order.
 */
export function LandingDocument() {
  return (
    <>
      {analyticsEnabled ? <Island of={consentBannerIsland} /> : null}
      <LandingPage />
      <Island of={toastIsland} />
    </>
  );
}
