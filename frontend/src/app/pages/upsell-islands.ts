import { consentBannerIsland } from '@/features/consent/components/consent-host';
import { upsellIsland } from '@/features/upsell/components/upsell-page';
import type { IslandDefinition } from '@/lib/islands';

/** The prerendered /upsell, in page order: the whole page is one island (every call to action depends on the visitor's query). */
export const upsellIslands: readonly IslandDefinition[] = [consentBannerIsland, upsellIsland];
