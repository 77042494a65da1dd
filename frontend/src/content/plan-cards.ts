import { formatPrice } from '@contracts/money';
import { CURRENCY, PLANS, type Plan } from '@contracts/plans';
import { fill } from '@contracts/site/fill';
import copy from '@site/copy/plan-cards.json';

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

/** What a plan costs in all: its instalments' sum. */
const total = (plan: Plan) => plan.amount * (plan.instalments ?? 1);
const sixMonthTotal = total(PLANS['6-month']);

/**
 * The 30-Day Experience's payment options, as /upsell and the /success offer show them (spec
 * section 9), from the site folder's copy/plan-cards.json; a card's saving (its text empty for
 * none) is against paying in six instalments. Their own module, so /success does not ship the
 * rest of /upsell's copy.
 */
export const planCards: PlanCard[] = (['6-month', '2-month', 'full-payment'] as const).map((id) => ({
  ...copy[id],
  plan: PLANS[id],
  saving: copy[id].saving ? fill(copy[id].saving, { saving: formatPrice(sixMonthTotal - total(PLANS[id]), CURRENCY) }) : null,
}));
