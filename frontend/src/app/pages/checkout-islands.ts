import { toastIsland } from '@/components/toast/toast-host';
import { checkoutIsland } from '@/features/checkout/components/checkout-island';
import { consentBannerIsland } from '@/features/consent/components/consent-host';
import type { IslandDefinition } from '@/lib/islands';

/**
 * The prerendered /checkout, in page order: the whole screen is one island (everything on it
 * depends on the visitor's query), then the toast area, whose code loads on the first toast.
 */
export const checkoutIslands: readonly IslandDefinition[] = [consentBannerIsland, checkoutIsland, toastIsland];
