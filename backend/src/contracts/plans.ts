/**
 * The one plan catalogue (spec section 3). Amounts are whole US dollars; the payment path decides
 * whether checkout creates a setup intent (subscription) or a payment intent (one-time).
 */
export type PaymentKind = 'subscription' | 'one-time';

export interface Plan {
  id: PlanId;
  amount: number;
  name: string;
  displayText: string;
  kind: PaymentKind;
  /**
   * Instalment plans: how many monthly charges of `amount` the plan is, the first at checkout
   * (one-time payment path) and the others on the card saved with it. Absent for other plans.
   */
  instalments?: number;
}

export const PLAN_IDS = ['standard', '6-month', '2-month', 'full-payment', 'payment-plan', 'premium', 'blackcard-vip'] as const;

export type PlanId = (typeof PLAN_IDS)[number];

export const DEFAULT_PLAN_ID: PlanId = 'standard';
export const CURRENCY = 'USD';

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  standard: { id: 'standard', amount: 97, name: 'Standard Access', displayText: '$97/month', kind: 'subscription' },
  '6-month': { id: '6-month', amount: 250, name: '6-Month Plan', displayText: '$250/month for 6 months', kind: 'one-time', instalments: 6 },
  '2-month': { id: '2-month', amount: 550, name: '2-Month Plan', displayText: '$550/month for 2 months', kind: 'one-time', instalments: 2 },
  'full-payment': { id: 'full-payment', amount: 997, name: 'Full Payment', displayText: '$997 one-time', kind: 'one-time' },
  'payment-plan': { id: 'payment-plan', amount: 37, name: '3-Payment Plan', displayText: '3 x $37', kind: 'one-time', instalments: 3 },
  premium: { id: 'premium', amount: 297, name: 'Elite Access', displayText: '$297/month', kind: 'subscription' },
  'blackcard-vip': { id: 'blackcard-vip', amount: 997, name: 'Black Card APEX', displayText: '$997 one-time', kind: 'one-time' },
};

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
