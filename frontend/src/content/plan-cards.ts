import { OFFERS, type Plan } from '@contracts/plans';
import { formatUsd } from './money';

/** The upgrade offer's plans (site.json offers.upgrade), in the order of the cards below. */
const [sixMonth, twoMonth, full] = OFFERS.upgrade;

/** Instalment counts of the 30-Day Experience (spec section 9); the catalogue holds each instalment's amount. */
const SIX_MONTH_PAYMENTS = 6;
const TWO_MONTH_PAYMENTS = 2;
const sixMonthTotal = sixMonth.amount * SIX_MONTH_PAYMENTS;
const twoMonthTotal = twoMonth.amount * TWO_MONTH_PAYMENTS;

export interface PlanCard {
  plan: Plan;
  title: string;
  badge: string;
  price: string;
  breakdown: string;
  saving: string | null;
  cta: string;
  highlighted: boolean;
}

/**
 * The 30-Day Experience's payment options, as /upsell and the /success offer show them (spec
 * section 9): their own module, so /success does not ship the rest of /upsell's copy.
 */
export const planCards: PlanCard[] = [
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
];
