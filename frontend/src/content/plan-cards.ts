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
type CardCopy = (typeof copy)[keyof typeof copy];
const cardCopy = copy as Readonly<Record<string, CardCopy>>;

/**
 * The 30-Day Experience's payment options (site.json offers.upgrade), as /upsell and the /success
 * offer show them (spec section 9), from the site folder's copy/plan-cards.json, one card per plan
 * id; a card's saving (its text empty for none) is against the first plan's total. Their own
 * module, so /success does not ship the rest of /upsell's copy.
 */
export const planCards: PlanCard[] = OFFERS.upgrade.map((plan) => {
  const words = cardCopy[plan.id];
  if (!words) throw new Error(`copy/plan-cards.json has no card for plan '${plan.id}' of offers.upgrade`);
  const saving = total(OFFERS.upgrade[0]) - total(plan);
  return { ...words, plan, saving: words.saving ? fill(words.saving, { saving: formatPrice(saving, CURRENCY) }) : null };
});
