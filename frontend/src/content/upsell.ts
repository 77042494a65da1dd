import { OFFERS } from '@contracts/plans';
import copy from '@site/copy/upsell.json';

/**
 * All copy of /upsell (spec sections 1, 2 and 9), from the site folder's copy/upsell.json; its plan
 * cards are in copy/plan-cards.json.
 */
export const upsell = {
  ...copy,
  /** The main and footer CTAs choose this plan (spec section 9: the default CTA plan on /upsell). */
  defaultPlan: OFFERS.upgradeCta ?? OFFERS.default,
};
