import { fill } from '@contracts/site/fill';
import copy from '@site/copy/blackcard.json';
import { pages } from './pages';

export interface TierCard {
  level: string;
  title: string;
  label: string;
  price: string | null;
  note: string;
}

/**
 * All copy of /blackcard (spec sections 1, 2 and 9), in page order, from the site folder's
 * copy/blackcard.json; a tier's price is empty when it has none. Its testimonials are static
 * quotes supplied with the page (spec section 2), not read from the testimonials API.
 */
export const blackcard = {
  ...copy,
  hero: { ...copy.hero, heading: pages.blackcard.heading },
  path: { ...copy.path, tiers: copy.path.tiers.map((tier): TierCard => ({ ...tier, price: tier.price || null })) },
  footer: { ...copy.footer, copyright: fill(copy.footer.copyright, { year: new Date().getFullYear() }) },
};

/** The invite funnel's `source` on checkout and success (spec section 1). */
export const INVITE_SOURCE = 'blackcard';
