import type { FakeAffiliateServer } from '../../fakes/affiliate-server';
import type { FakeGa4MpServer } from '../../fakes/ga4-mp-server';
import type { FakeMetaCapiServer } from '../../fakes/meta-capi-server';
import type { SmtpSink } from '../../fakes/smtp-sink';

/** The third parties a paid order reaches, as the fakes a spec keeps to count what they received. */
export interface SaleFakes {
  affiliate: FakeAffiliateServer;
  meta: FakeMetaCapiServer;
  ga4: FakeGa4MpServer;
  smtp: SmtpSink;
}

/**
 * Starts the fakes and returns the settings that point the API and worker at them: the affiliate
 * service, Meta's Conversions API (with `metaToken`, the token the Meta fake was made to accept),
 * GA4's Measurement Protocol (as `measurementId`) and SMTP.
 */
export async function startSaleFakes(
  { affiliate, meta, ga4, smtp }: SaleFakes,
  metaToken: string,
  measurementId: string,
): Promise<Record<string, string>> {
  return {
    AFFILIATE_API_URL: await affiliate.start(),
    AFFILIATE_API_KEY: 'affiliate-key',
    META_CAPI_URL: await meta.start(),
    GA4_MP_URL: await ga4.start(),
    SMTP_URL: await smtp.start(),
    META_PIXEL_ID: '1234567890',
    META_CAPI_ACCESS_TOKEN: metaToken,
    GA4_MEASUREMENT_ID: measurementId,
    GA4_API_SECRET: 'ga4-secret',
  };
}
