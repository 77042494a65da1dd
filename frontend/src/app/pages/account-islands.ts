import { accountIsland } from '@/features/account/components/account-page';
import { consentBannerIsland } from '@/features/consent/components/consent-host';
import type { IslandDefinition } from '@/lib/islands';

/** The prerendered /account, in page order: the whole page is one island (every state depends on the visitor's session). */
export const accountIslands: readonly IslandDefinition[] = [consentBannerIsland, accountIsland];
