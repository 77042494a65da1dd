/**
 * The browser suite's second site: the same build as the server under test (which has no
 * analytics), started with these run-time settings (scripts/test.ts). Its pages must carry them
 * with no rebuild: the GA4 tag, the Meta pixel, their CSP hosts and its own members-area links.
 */
export const ANALYTICS_SITE_SETTINGS = {
  GA4_MEASUREMENT_ID: 'G-E2ECONSENT',
  META_PIXEL_ID: '100200300400500',
  PROGRAM_APP_URL: 'https://members.analytics-site.example',
  MEMBERS_REGISTER_URL: 'https://members.analytics-site.example/join',
  APP_DOWNLOAD_URL: 'https://get.analytics-site.example/app',
} as const;
