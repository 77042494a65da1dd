import { toastIsland } from '@/components/toast/toast-host';
import { consentBannerIsland, consentSettingsIsland } from '@/features/consent/components/consent-host';
import { leadFormIsland } from '@/features/lead-capture/components/lead-form';
import { faqIsland } from '@/features/landing/components/faq-accordion';
import { heroVideoIsland } from '@/features/landing/components/hero-backdrop';
import { salesLetterVideoIsland } from '@/features/landing/components/sales-letter-video';
import { testimonialsIsland } from '@/features/testimonials/components/testimonials-section';
import type { IslandDefinition } from '@/lib/islands';

/**
 * Every island of the prerendered landing page: the prerender renders each of them, the browser
 * hydrates each of them, and nothing else on the page ships code. An island placed on the page but
 * missing here fails the build. The consent islands' containers exist only in builds with analytics.
 * They hydrate in this order, one per task: the lead form last, so its enabled submit button means
 * the whole page is interactive (the browser tests wait for exactly that).
 */
export const landingIslands: readonly IslandDefinition[] = [
  consentBannerIsland,
  heroVideoIsland,
  salesLetterVideoIsland,
  testimonialsIsland,
  faqIsland,
  consentSettingsIsland,
  toastIsland,
  leadFormIsland,
];
