import { PLANS, type Plan } from '@contracts/plans';
import { brand } from './brand';
import { formatUsd } from './money';

const method = `${brand.methodName}™`;
const sixMonth = PLANS['6-month'];
const twoMonth = PLANS['2-month'];
const full = PLANS['full-payment'];

/** Instalment counts of the 30-Day Experience (spec section 9); the catalogue holds each instalment's amount. */
const SIX_MONTH_PAYMENTS = 6;
const TWO_MONTH_PAYMENTS = 2;
const sixMonthTotal = sixMonth.amount * SIX_MONTH_PAYMENTS;
const twoMonthTotal = twoMonth.amount * TWO_MONTH_PAYMENTS;

export interface UpsellPlanCard {
  plan: Plan;
  title: string;
  badge: string;
  price: string;
  breakdown: string;
  saving: string | null;
  cta: string;
  highlighted: boolean;
}

/** All copy of /upsell (spec sections 1, 2 and 9). */
export const upsell = {
  eyebrow: 'WAIT: YOUR ORDER IS NOT COMPLETE YET',
  headline: `You're about to get the ${method} for ${PLANS.standard.displayText}.`,
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
  startingFrom: `Starting from ${formatUsd(sixMonth.amount)} per month`,
  plansHeading: 'Choose how you want to pay',
  plans: [
    {
      plan: sixMonth,
      title: '6 Monthly Payments',
      badge: 'MOST POPULAR',
      price: `${formatUsd(sixMonth.amount)}/month`,
      breakdown: `${SIX_MONTH_PAYMENTS} × ${formatUsd(sixMonth.amount)} = ${formatUsd(sixMonthTotal)}`,
      saving: null,
      cta: `Start with ${formatUsd(sixMonth.amount)}/month`,
      highlighted: false,
    },
    {
      plan: twoMonth,
      title: '2 Monthly Payments',
      badge: 'BEST VALUE',
      price: `${formatUsd(twoMonth.amount)}/month`,
      breakdown: `${TWO_MONTH_PAYMENTS} × ${formatUsd(twoMonth.amount)} = ${formatUsd(twoMonthTotal)}`,
      saving: `Save ${formatUsd(sixMonthTotal - twoMonthTotal)}`,
      cta: `Start with ${formatUsd(twoMonth.amount)}/month`,
      highlighted: true,
    },
    {
      plan: full,
      title: 'Pay in Full',
      badge: 'BIGGEST SAVINGS',
      price: formatUsd(full.amount),
      breakdown: 'One payment, instant access',
      saving: `Save ${formatUsd(sixMonthTotal - full.amount)}!`,
      cta: `Pay ${formatUsd(full.amount)} now`,
      highlighted: false,
    },
  ] satisfies UpsellPlanCard[],
  /** The main and footer CTAs choose this plan (spec section 9: the default CTA plan on /upsell). */
  defaultPlan: twoMonth,
  guaranteeHeading: 'Our promise',
  guarantee: "Complete the 30-Day Experience, and if you don't feel transformed, we don't walk away.",
  guaranteePromise: "We'll work with you until you do.",
  decline: 'No thanks, continue with the basic program',
  viewContentName: 'Premium Upsell',
  viewContentCategory: 'upsell',
};
