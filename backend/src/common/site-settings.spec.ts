import { loadConfig } from '@core/config/app-config';
import { AffiliateConfig, AnalyticsConfig, MembershipConfig } from '@core/config/config-sections';
import { siteSettingsElement, siteSettingsOf, withSiteSettings } from './site-settings';

const base = { DATABASE_URL: 'postgres://u:p@localhost:5432/db', REDIS_URL: 'redis://localhost:6379' };

/** The settings of this environment, read from its sections as app.factory.ts reads them. */
function settingsOf(env: NodeJS.ProcessEnv) {
  const config = loadConfig(env);
  return siteSettingsOf(AnalyticsConfig.of(config), AffiliateConfig.of(config), MembershipConfig.of(config));
}

describe('site settings', () => {
  it('takes the ids and links from the configuration, null when unset', () => {
    const settings = settingsOf({ ...base, GA4_MEASUREMENT_ID: 'G-ABC123', PROGRAM_APP_URL: 'https://members.example.com' });
    expect(settings).toEqual({
      ga4Id: 'G-ABC123',
      metaPixelId: null,
      firstPromoterId: null,
      programAppUrl: 'https://members.example.com',
      membersRegisterUrl: null,
      appDownloadUrl: null,
    });
  });

  it('has no element when nothing is set: the pages then go out as built', () => {
    expect(siteSettingsElement(settingsOf(base))).toBeNull();
  });

  it('writes only the set values, as JSON that cannot end its script element', () => {
    const element = siteSettingsElement({
      ga4Id: 'G-ABC123',
      metaPixelId: null,
      firstPromoterId: null,
      programAppUrl: 'https://members.example.com/?a=1&b=</script><!--',
      membersRegisterUrl: null,
      appDownloadUrl: null,
    });
    expect(element).toMatch(/^<script type="application\/json" id="site-settings">[^<]*<\/script>$/);
    const json = /^<script[^>]*>(.*)<\/script>$/.exec(element ?? '')?.[1] ?? '';
    expect(JSON.parse(json)).toEqual({ ga4Id: 'G-ABC123', programAppUrl: 'https://members.example.com/?a=1&b=</script><!--' });
  });

  it('goes at the end of the head, `$` patterns and all as text', () => {
    const element = '<script type="application/json" id="site-settings">{"ga4Id":"$&"}</script>';
    expect(withSiteSettings('<html><head><title>x</title></HEAD><body></body></html>', element)).toBe(
      `<html><head><title>x</title>${element}</HEAD><body></body></html>`,
    );
  });
});
