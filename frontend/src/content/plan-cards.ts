import { formatPrice } from '@contracts/money';
import { CURRENCY, OFFERS, type Plan } from '@contracts/plans';
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

/**
 * The 30-Day Experience's payment options (site.json offers.upgrade), as /upsell and the /success
 * offer show them (spec section 9), each with its card in the site folder's copy/plan-cards.json
 * (the build checks there is one); a card's saving (its text empty for none) is against the first
 * plan's total. Their own module, so /success does not ship the rest of /upsell's copy.
 */
export const planCards: PlanCard[] = OFFERS.upgrade.map((plan) => {
  const words = copy.find((card) => card.plan === plan.id) as (typeof copy)[number];
  const saving = total(OFFERS.upgrade[0]) - total(plan);
  return { ...words, plan, saving: words.saving ? fill(words.saving, { saving: formatPrice(saving, CURRENCY) }) : null };
});
