import { fill } from '@contracts/site/fill';
import copy from '@site/copy/landing.json';

/**
 * The copy of the landing page's islands (spec section 2, "/"): hero video, sales letter video,
 * testimonials, FAQ and lead form, from the site folder's copy/landing.json; the rest of the page's
 * copy is in copy/landing-sections.json, so the islands' code does not ship the static sections' text.
 */
export interface FaqItem {
  question: string;
  answer: string;
}

export const { hero, salesLetter, leadCapture } = copy;

export const faq: { heading: string; items: FaqItem[] } = copy.faq;

export const testimonialsSection = {
  ...copy.testimonialsSection,
  watchLabel: (name: string) => fill(copy.testimonialsSection.watchLabel, { name }),
  ratingLabel: (rating: number, max: number) => fill(copy.testimonialsSection.ratingLabel, { rating, max }),
};
