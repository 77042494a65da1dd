import { PLANS, type Plan, type PlanId } from '@contracts/plans';
import type { CouponKind } from '@contracts/coupons';
import { formatMoney, toMinorUnits } from '@contracts/money';

/**
 * The least a discounted price may be, in minor units: Stripe refuses charges under $0.50, so a
 * code that would take a plan below it is refused for that plan (a 100% coupon never applies), with
 * a message. Stripe's minimum differs by currency (docs.stripe.com/currencies); 50 is the USD one.
 */
export const MIN_CHARGE_CENTS = 50;

/** What pricing needs to know about a coupon row. */
export interface CouponTerms {
  code: string;
  kind: CouponKind;
  percent_off: number | null;
  amount_off_cents: number | null;
  plan_ids: PlanId[];
  duration_months: number | null;
  expires_at: Date | null;
  max_redemptions: number | null;
  redeemed: number;
  active: boolean;
}

export type CouponPrice =
  | { valid: true; fullCents: number; discountCents: number; totalCents: number; durationMonths: number | null }
  | { valid: false; message: string; fullCents: number };

/** Codes are compared upper case, without surrounding spaces. */
export const normalizeCouponCode = (code: string): string => code.trim().toUpperCase();

/** Cents a coupon takes off `fullCents`: a percentage rounded half up to the cent, or a fixed amount (never more than the price). */
export function discountCents(fullCents: number, terms: Pick<CouponTerms, 'kind' | 'percent_off' | 'amount_off_cents'>): number {
  if (terms.kind === 'percent') return Math.floor((fullCents * (terms.percent_off ?? 0) + 50) / 100);
  return Math.min(terms.amount_off_cents ?? 0, fullCents);
}

/** Plans a coupon can be for: instalment plans charge the same amount several times and take none. */
const couponablePlan = (plan: Plan): boolean => plan.instalments === undefined;

/** The price of `plan` in `currency` with `coupon` at `now`, or why the code cannot be used (the buyer then pays the full price). */
export function priceWithCoupon(coupon: CouponTerms | null, plan: Plan, now: Date, currency: string): CouponPrice {
  const fullCents = toMinorUnits(plan.amount, currency);
  const refuse = (message: string): CouponPrice => ({ valid: false, message, fullCents });
  if (!coupon) return refuse('This coupon code is not valid.');
  if (!coupon.active) return refuse('This coupon code is no longer active.');
  if (coupon.expires_at && coupon.expires_at.getTime() <= now.getTime()) return refuse('This coupon code has expired.');
  if (coupon.max_redemptions !== null && coupon.redeemed >= coupon.max_redemptions) return refuse('This coupon code has been used up.');
  if (!coupon.plan_ids.includes(plan.id) || !couponablePlan(plan))
    return refuse(`This coupon code does not apply to the ${plan.name} plan.`);
  const discount = discountCents(fullCents, coupon);
  const totalCents = fullCents - discount;
  if (totalCents < MIN_CHARGE_CENTS)
    return refuse(
      `This coupon code would take the ${plan.name} plan below the ${formatMoney(MIN_CHARGE_CENTS, currency, { decimals: 'always' })} minimum charge, so it cannot be used for it.`,
    );
  return {
    valid: true,
    fullCents,
    discountCents: discount,
    totalCents,
    durationMonths: plan.kind === 'subscription' ? coupon.duration_months : null,
  };
}

/** The plans an admin may choose for a coupon. */
export const COUPONABLE_PLAN_IDS = PLANS.filter(couponablePlan).map((plan) => plan.id);

export const USED_UP_MESSAGE = 'This coupon code has been used up.';
