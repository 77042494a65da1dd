import { consentBannerIsland } from '@/features/consent/components/consent-host';
import { successIsland } from '@/features/success/components/success-page';
import type { IslandDefinition } from '@/lib/islands';

/** The prerendered /success, in page order: the whole page is one island (every view depends on the visitor's payment). */
export const successIslands: readonly IslandDefinition[] = [consentBannerIsland, successIsland];
