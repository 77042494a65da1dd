import { blackcardIsland } from '@/features/blackcard/components/blackcard-page';
import { consentBannerIsland } from '@/features/consent/components/consent-host';
import type { IslandDefinition } from '@/lib/islands';

/** The prerendered /blackcard, in page order: the access check and, once granted, the content (one island). */
export const blackcardIslands: readonly IslandDefinition[] = [consentBannerIsland, blackcardIsland];
