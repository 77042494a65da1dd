import { blackcardIsland, grantedBlackcardIsland } from '@/features/blackcard/components/blackcard-page';
import { consentBannerIsland } from '@/features/consent/components/consent-host';
import type { IslandDefinition } from '@/lib/islands';

/** The prerendered /blackcard, in page order: the access check and, once granted, the content (one island). */
export const blackcardIslands: readonly IslandDefinition[] = [consentBannerIsland, blackcardIsland];

/** Build-time only: the document the server sends when it has checked the query token (@contracts/blackcard-grant). */
export const grantedBlackcardIslands: readonly IslandDefinition[] = [consentBannerIsland, grantedBlackcardIsland];
