import { site } from './site/site';
import { planDisplayText } from './site/site-copy';

/**
 * The one plan catalogue (spec section 3), read from the site folder's site.json. Amounts are whole
 * units of the site's currency; the payment path decides whether checkout creates a setup intent
 * (subscription) or a payment intent (one-time).
 */
export type PaymentKind = 'subscription' | 'one-time';

export interface Plan {
  id: PlanId;
  amount: number;
  name: string;
  /** How the price reads ('$97/month'), derived from the amount, kind and instalments. */
  displayText: string;
  kind: PaymentKind;
  /** How often a subscription renews. */
  interval?: 'month' | 'year';
  /**
   * Instalment plans: how many monthly charges of `amount` the plan is, the first at checkout
   * (one-time payment path) and the others on the card saved with it. Absent for other plans.
   */
  instalments?: number;
}

export const PLAN_IDS = ['standard', '6-month', '2-month', 'full-payment', 'payment-plan', 'premium', 'blackcard-vip'] as const;

export type PlanId = (typeof PLAN_IDS)[number];

export const DEFAULT_PLAN_ID: PlanId = 'standard';
/** The site's currency (ISO 4217, capitals). */
export const CURRENCY = site.currency;

function planOf(id: PlanId): Plan {
  const found = site.plans.find((p) => p.id === id);
  if (!found) throw new Error(`site.json: plans: no plan '${id}'`);
  const { name, amount, kind, interval, instalments } = found;
  return { id, name, amount, kind, displayText: planDisplayText(found, CURRENCY), ...(interval ? { interval } : {}), ...(instalments ? { instalments } : {}) };
}

export const PLANS: Readonly<Record<PlanId, Plan>> = Object.fromEntries(PLAN_IDS.map((id) => [id, planOf(id)])) as Record<PlanId, Plan>;

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value);
}

/** Unknown or missing plan ids fall back to the standard plan, as the spec requires. */
export function resolvePlan(id: string | null | undefined): Plan {
  return isPlanId(id) ? PLANS[id] : PLANS[DEFAULT_PLAN_ID];
}

/**
 * What a plan gives access to: the members area of the Clear programme (every way of paying for
 * it), Elite Access, or Black Card APEX. A buyer has one membership per product.
 */
export const PRODUCT_IDS = ['clear', 'elite', 'blackcard'] as const;
export type ProductId = (typeof PRODUCT_IDS)[number];

export const PRODUCT_OF_PLAN: Readonly<Record<PlanId, ProductId>> = {
  standard: 'clear',
  '6-month': 'clear',
  '2-month': 'clear',
  'full-payment': 'clear',
  'payment-plan': 'clear',
  premium: 'elite',
  'blackcard-vip': 'blackcard',
};

/** The plans whose orders give access to a product. */
export function plansOf(product: ProductId): PlanId[] {
  return PLAN_IDS.filter((id) => PRODUCT_OF_PLAN[id] === product);
}

/**
 * Where a buyer's access to a product stands: active; canceling (active until its period ends,
 * as the buyer asked); past due (a payment failed and is being retried; access kept meanwhile);
 * ended.
 */
export const MEMBERSHIP_STATUSES = ['active', 'canceling', 'past_due', 'ended'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];
