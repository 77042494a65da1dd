import type { AffiliateConfig, AnalyticsConfig, MembershipConfig } from '@core/config/config-sections';
import { SITE_SETTINGS, type SiteSettings } from '@contracts/site-settings';
import { scriptSafeJson } from './script-safe-json';

/** The browser's share of the configuration (@contracts/site-settings), as the server started with it. */
export function siteSettingsOf(analytics: AnalyticsConfig, affiliate: AffiliateConfig, membership: MembershipConfig): SiteSettings {
  return {
    ga4Id: analytics.GA4_MEASUREMENT_ID ?? null,
    metaPixelId: analytics.META_PIXEL_ID ?? null,
    firstPromoterId: affiliate.FIRSTPROMOTER_ID ?? null,
    programAppUrl: membership.PROGRAM_APP_URL ?? null,
    membersRegisterUrl: membership.MEMBERS_REGISTER_URL ?? null,
    appDownloadUrl: membership.APP_DOWNLOAD_URL ?? null,
  };
}

/**
 * The data block a public page carries the settings in (never executed, so the CSP needs no hash
 * for it); null when none is set, and the pages go out as built (the browser then has every
 * integration off and the links' defaults).
 */
export function siteSettingsElement(settings: SiteSettings): string | null {
  const set = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== null));
  if (Object.keys(set).length === 0) return null;
  return `<script type="application/json" id="${SITE_SETTINGS.elementId}">${scriptSafeJson(set)}</script>`;
}

const HEAD_CLOSE = /<\/head>/i;

/** The document with the settings' element at the end of its head (unchanged if it has none). */
export function withSiteSettings(html: string, element: string): string {
  // A function replacement: the element is text, never a replacement pattern.
  return html.replace(HEAD_CLOSE, (close) => `${element}${close}`);
}
