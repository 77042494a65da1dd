import type { PlanId } from './plans';

/** A coupon takes a percentage or a fixed amount off the plan's price. */
export type CouponKind = 'percent' | 'fixed';

/** GET /api/coupons/quote?code=&plan=: what the buyer pays today with the code, computed by the server. */
export interface CouponQuote {
  /** The code as the server reads it (trimmed, upper case). */
  code: string;
  plan: PlanId;
  /** False: the code cannot be used for this plan; `message` says why and the totals are the full price. */
  valid: boolean;
  message: string | null;
  fullCents: number;
  discountCents: number;
  totalCents: number;
  /** A subscription's discounted months, the first included; null: every month (or a one-time plan). */
  durationMonths: number | null;
}

/** POST /api/admin/coupons. */
export interface CreateCouponRequest {
  code: string;
  kind: CouponKind;
  /** Whole percent, 1–100 (kind percent). */
  percentOff?: number;
  /** Cents (kind fixed). */
  amountOffCents?: number;
  planIds: PlanId[];
  /** Subscriptions: the first N months are discounted; omitted or null: forever. */
  durationMonths?: number | null;
  /** ISO date-time after which the code is refused; omitted: never expires. */
  expiresAt?: string | null;
  /** Omitted: unlimited. */
  maxRedemptions?: number | null;
  /** Offer it to members who cancel, taken off their next renewal once (the newest such coupon for their plan is offered). */
  saveOffer?: boolean;
}

export interface AdminCoupon {
  id: string;
  code: string;
  kind: CouponKind;
  percentOff: number | null;
  amountOffCents: number | null;
  planIds: PlanId[];
  durationMonths: number | null;
  expiresAt: string | null;
  maxRedemptions: number | null;
  /** Redemptions counting against the cap: paid orders, and unpaid ones opened less than COUPON_HOLD_MINUTES ago. */
  redeemed: number;
  active: boolean;
  saveOffer: boolean;
  createdAt: string;
}
