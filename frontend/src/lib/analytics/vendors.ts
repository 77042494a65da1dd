import type { AnalyticsAdapter } from './events';
import { createGa4Adapter } from './ga4';
import { createMetaPixelAdapter } from './meta-pixel';

/** Loaded only when at least one vendor id is configured and the visitor has accepted analytics. */
export function createVendorAdapters({ ga4Id, metaPixelId }: { ga4Id: string | null; metaPixelId: string | null }): AnalyticsAdapter[] {
  const adapters: AnalyticsAdapter[] = [];
  if (ga4Id) adapters.push(createGa4Adapter(ga4Id));
  if (metaPixelId) adapters.push(createMetaPixelAdapter(metaPixelId));
  return adapters;
}
