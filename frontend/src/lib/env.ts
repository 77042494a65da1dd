import { SITE_SETTINGS, type SiteSettings } from '@contracts/site-settings';

/**
 * The site's run-time settings (@contracts/site-settings): third-party ids, where null means the
 * integration is off, and the members-area links, where null means content/config.ts's default.
 * The server writes the ones set, validated, into the page's head when it starts; the prerender
 * (no document) and a page without them read every one as null.
 */
function readSettings(): SiteSettings {
  const none: SiteSettings = {
    ga4Id: null,
    metaPixelId: null,
    firstPromoterId: null,
    programAppUrl: null,
    membersRegisterUrl: null,
    appDownloadUrl: null,
  };
  const text = typeof document === 'undefined' ? null : document.getElementById(SITE_SETTINGS.elementId)?.textContent;
  try {
    return text ? { ...none, ...(JSON.parse(text) as Partial<SiteSettings>) } : none;
  } catch {
    return none;
  }
}

export const env = readSettings();
