import { formatPrice } from '@contracts/money';
import { CURRENCY, PLANS, type Plan } from '@contracts/plans';

const sixMonth = PLANS['6-month'];
const twoMonth = PLANS['2-month'];
const full = PLANS['full-payment'];

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
    price: `${formatPrice(sixMonth.amount, CURRENCY)}/month`,
    breakdown: `${SIX_MONTH_PAYMENTS} × ${formatPrice(sixMonth.amount, CURRENCY)} = ${formatPrice(sixMonthTotal, CURRENCY)}`,
    saving: null,
    cta: `Start with ${formatPrice(sixMonth.amount, CURRENCY)}/month`,
    highlighted: false,
  },
  {
    plan: twoMonth,
    title: '2 Monthly Payments',
    badge: 'BEST VALUE',
    price: `${formatPrice(twoMonth.amount, CURRENCY)}/month`,
    breakdown: `${TWO_MONTH_PAYMENTS} × ${formatPrice(twoMonth.amount, CURRENCY)} = ${formatPrice(twoMonthTotal, CURRENCY)}`,
    saving: `Save ${formatPrice(sixMonthTotal - twoMonthTotal, CURRENCY)}`,
    cta: `Start with ${formatPrice(twoMonth.amount, CURRENCY)}/month`,
    highlighted: true,
  },
  {
    plan: full,
    title: 'Pay in Full',
    badge: 'BIGGEST SAVINGS',
    price: formatPrice(full.amount, CURRENCY),
    breakdown: 'One payment, instant access',
    saving: `Save ${formatPrice(sixMonthTotal - full.amount, CURRENCY)}!`,
    cta: `Pay ${formatPrice(full.amount, CURRENCY)} now`,
    highlighted: false,
  },
];
