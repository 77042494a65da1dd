import { OFFERS } from '@contracts/plans';
import { brand } from './brand';
import { formatUsd } from './money';

const method = `${brand.methodName}™`;
/** The upgrade's lowest monthly charge, which the calls to action start from. */
const lowestUpgrade = Math.min(...OFFERS.upgrade.map((plan) => plan.amount));

/** All copy of /upsell (spec sections 1, 2 and 9); its plan cards are in content/plan-cards.ts. */
export const upsell = {
  eyebrow: 'WAIT: YOUR ORDER IS NOT COMPLETE YET',
  headline: `You're about to get the ${method} for ${OFFERS.default.displayText}.`,
  subheadline: 'Before you do: would you like to live it for 30 days with us, side by side?',
  offerHeading: 'The 30-Day Experience',
  offerIntro: 'Our 30-day intensive takes you from knowing the method to living it, with the people and structure that make it stick.',
  includesHeading: "What's included",
  includes: [
    'A 3-day weekend intensive',
    'A 30-day cohort with accountability and community, plus a private app for posting your daily intentions',
    'One weekly live Q&A for 6 weeks',
    'The video course library and website access',
    '6 months of support and posting access',
  ],
  mainCta: "YES—I'm Ready to Step Into My Power",
  footerCta: 'Join the 30-Day Experience Now →',
  startingFrom: `Starting from ${formatUsd(lowestUpgrade)} per month`,
  plansHeading: 'Choose how you want to pay',
  /** The main and footer CTAs choose this plan (spec section 9: the default CTA plan on /upsell). */
  defaultPlan: OFFERS.upgradeCta ?? OFFERS.default,
  guaranteeHeading: 'Our promise',
  guarantee: "Complete the 30-Day Experience, and if you don't feel transformed, we don't walk away.",
  guaranteePromise: "We'll work with you until you do.",
  decline: 'No thanks, continue with the basic program',
  viewContentName: 'Premium Upsell',
  viewContentCategory: 'upsell',
};
