import { site } from './site/site';
import type { Site } from './site/site-copy';

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
  /** How the price reads ('$10/month'), derived from the amount, kind and instalments. */
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

/**
 * A plan's id, as site.json names it: any string from outside (a query, a request body, a stored
 * order) is checked with `isPlanId` or looked up with `findPlan`, never trusted.
 */
export type PlanId = string;

/** The site's currency (ISO 4217, capitals). */
export const CURRENCY = site.currency;

function planFrom(found: Site['plans'][number]): Plan {
  const { id, name, amount, kind, interval, instalments, displayText } = found;
  return { id, name, amount, kind, displayText, ...(interval ? { interval } : {}), ...(instalments ? { instalments } : {}) };
}

/** The catalogue, in site.json's order. */
export const PLANS: readonly Plan[] = site.plans.map(planFrom);
export const PLAN_IDS: readonly PlanId[] = PLANS.map((p) => p.id);
const BY_ID = new Map<string, Plan>(PLANS.map((p) => [p.id, p]));

/** Whether a value is the id of a catalogue plan (a boolean, not a type guard: every string is a PlanId's type). */
export function isPlanId(value: unknown): boolean {
  return typeof value === 'string' && BY_ID.has(value);
}

/** The catalogue's plan of this id, if there is one. */
export function findPlan(id: unknown): Plan | undefined {
  return typeof id === 'string' ? BY_ID.get(id) : undefined;
}

/** A plan site.json names (a role, or a plan the caller checked): its absence is a broken site, not a bad request. */
export function planOf(id: PlanId): Plan {
  const plan = BY_ID.get(id);
  if (!plan) throw new Error(`site.json: plans: no plan '${id}'`);
  return plan;
}

/** What the pages offer, by role (site.json `offers`; the schema checks every id names a plan). */
export interface Offers {
  /** Unknown or missing plan ids fall back to it (spec section 3); the base plan the funnel sells. */
  default: Plan;
  /** The upgrade offer's cards on /upsell and /success. */
  upgrade: readonly Plan[];
  /** The upgrade /upsell's main buttons choose. */
  upgradeCta: Plan | undefined;
  /** What /blackcard-upsell sells, with its own list of contents at /checkout; none: that page sells the default plan. */
  levelTwo: Plan | undefined;
  /** Whether a plan's pay button reads 'Payment 1 of N'. */
  firstInstalmentButton: (plan: Plan) => boolean;
  /** The add-on /checkout offers with every other plan (a one-time plan, charged with the first payment); none: no add-on. */
  bump: Plan | undefined;
}

const defaultPlan = planOf(site.offers.default);
const upgrade = site.offers.upgrade.map(planOf);
const firstInstalmentButton = new Set(site.offers.firstInstalmentButton);

export const OFFERS: Offers = {
  default: defaultPlan,
  upgrade,
  upgradeCta: site.offers.upgradeCta ? planOf(site.offers.upgradeCta) : upgrade[0],
  levelTwo: site.offers.levelTwo ? planOf(site.offers.levelTwo) : undefined,
  firstInstalmentButton: (plan) => firstInstalmentButton.has(plan.id),
  bump: site.offers.bump ? planOf(site.offers.bump) : undefined,
};

/** The add-on a checkout of this plan offers: the site's bump, unless the plan is the add-on itself. */
export function bumpOffered(plan: Pick<Plan, 'id'>): Plan | undefined {
  return OFFERS.bump && OFFERS.bump.id !== plan.id ? OFFERS.bump : undefined;
}

export const DEFAULT_PLAN_ID: PlanId = defaultPlan.id;

/** Unknown or missing plan ids fall back to the default plan, as the spec requires. */
export function resolvePlan(id: string | null | undefined): Plan {
  return findPlan(id) ?? defaultPlan;
}

/** Whether the plan is the site's add-on (offers.bump): sold only ticked onto another plan's checkout, never alone. */
export function isAddOnOnly(plan: Pick<Plan, 'id'>): boolean {
  return OFFERS.bump?.id === plan.id;
}

/** How many months one billing period of a plan lasts: 12 for a yearly subscription, else 1 (instalments are monthly). */
export function periodMonths(planId: PlanId): number {
  return BY_ID.get(planId)?.interval === 'year' ? 12 : 1;
}

/**
 * Where a buyer's access to a product stands: active; canceling (active until its period ends,
 * as the buyer asked); past due (a payment failed and is being retried; access kept meanwhile);
 * paused (the member paused in the cancellation flow: no access until the pause ends); ended.
 */
export const MEMBERSHIP_STATUSES = ['active', 'canceling', 'past_due', 'paused', 'ended'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/** Whether a membership in this status may enter the members area (paused and ended may not). */
export const grantsAccess = (status: MembershipStatus | null | undefined): boolean =>
  status !== undefined && status !== null && status !== 'ended' && status !== 'paused';
