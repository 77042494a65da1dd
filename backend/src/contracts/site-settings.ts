/**
 * The site's run-time settings the browser needs (third-party ids and the members-area links):
 * the API reads them from its environment at start and writes them into every public page it
 * serves, as a `<script type="application/json">` data block in the head, so one build serves any
 * site's settings. A setting left out (or null) is off, or for a link, the brand's default.
 */
export const SITE_SETTINGS = {
  /** The id of the `<script type="application/json">` holding the settings (SiteSettings JSON). */
  elementId: 'site-settings',
} as const;

export interface SiteSettings {
  /** GA4 measurement id (G-…): the gtag.js tag, after consent. */
  ga4Id: string | null;
  /** Meta pixel id: the pixel, after consent. */
  metaPixelId: string | null;
  /** FirstPromoter account id: the affiliate script. */
  firstPromoterId: string | null;
  /** The members' app ('Access Your Program'). */
  programAppUrl: string | null;
  /** 'Register Your Account Now'. */
  membersRegisterUrl: string | null;
  /** 'Download the App'. */
  appDownloadUrl: string | null;
}
