import { consentBannerIsland } from '@/features/consent/components/consent-host';
import { analyticsEnabled } from '@/lib/analytics';
import { Island, type IslandDefinition } from '@/lib/islands';

/**
 * What `#root` holds on a prerendered page other than `/`: its islands in page order, each on its
 * own container. The consent banner's container exists only in builds with analytics, first, as
 * the SPA's providers (app/providers.tsx) place it.
 */
export function IslandDocument({ islands }: { islands: readonly IslandDefinition[] }) {
  return (
    <>{islands.map((island) => (island === consentBannerIsland && !analyticsEnabled ? null : <Island key={island.name} of={island} />))}</>
  );
}
