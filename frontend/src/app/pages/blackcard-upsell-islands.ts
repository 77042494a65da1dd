import { blackcardUpsellIsland } from '@/features/blackcard-upsell/components/blackcard-upsell-page';
import { consentBannerIsland } from '@/features/consent/components/consent-host';
import type { IslandDefinition } from '@/lib/islands';

/** The prerendered /blackcard-upsell, in page order: the whole page is one island (every call to action depends on the visitor's query). */
export const blackcardUpsellIslands: readonly IslandDefinition[] = [consentBannerIsland, blackcardUpsellIsland];
