import { toastIsland } from '@/components/toast/toast-host';
import { consentBannerIsland } from '@/features/consent/components/consent-host';
import { invitationIsland } from '@/features/invitation/components/invitation-page';
import type { IslandDefinition } from '@/lib/islands';

/** The prerendered /invitation, in page order: the gate (form, confirmation and overlay) and the toast area its answers use. */
export const invitationIslands: readonly IslandDefinition[] = [consentBannerIsland, invitationIsland, toastIsland];
