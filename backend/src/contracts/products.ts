import { OFFERS, PLAN_IDS, PLANS, type PlanId } from './plans';
import { site } from './site/site';

/**
 * What a plan gives access to (site.json's `product` of each plan: the programme, whichever way
 * it is paid for, or a higher level sold as its own plan). A buyer has one membership per product.
 * The server's and the admin's: no buyer page reads it, so the pages' settings leave it out.
 */
export type ProductId = string;

const PRODUCT_BY_PLAN = new Map<string, ProductId>(site.plans.map((p) => [p.id, p.product]));
export const PRODUCT_IDS: readonly ProductId[] = [...new Set(PRODUCT_BY_PLAN.values())];

/** The product a catalogue plan gives access to; undefined for an id no longer in the catalogue. */
export function productOf(planId: PlanId): ProductId | undefined {
  return PRODUCT_BY_PLAN.get(planId);
}

/** The plans whose orders give access to a product. */
export function plansOf(product: ProductId): PlanId[] {
  return PLAN_IDS.filter((id) => PRODUCT_BY_PLAN.get(id) === product);
}

/** How the admin names a product: the default plan's is the programme, another its first plan's name; an unknown one, its id. */
export function productName(product: ProductId): string {
  if (product === productOf(OFFERS.default.id)) return `${site.brand.programName} programme`;
  return PLANS.find((plan) => PRODUCT_BY_PLAN.get(plan.id) === product)?.name ?? product;
}
