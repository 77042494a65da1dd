/**
 * GET /api/admin/revenue: the membership business month by month. Amounts are in the site's
 * currency, in its minor units; only payments in that currency count.
 *
 * A subscription payment pays for the calendar month (UTC) it was made in, a yearly plan's for
 * that month and the eleven after; a payment refunded in full pays for nothing. A member pays in a
 * month when one of their subscriptions was paid for it, and their MRR that month is the sum over
 * those subscriptions of each one's payment divided by its months (a yearly plan counts 1/12).
 *
 * A pause from the cancellation flow (the renewals falling due in it are void) is not churn: the
 * months it covers are months of membership at no MRR. The member's MRR leaves as 'paused' in its
 * first month and comes back as 'resumed' when they pay again; a member who cancels during a pause
 * churns in the month after its last paused month, with no MRR (it left when they paused). Cohort
 * retention counts members on pause as still members.
 */
export type RevenueMode = 'live' | 'test';

export interface RevenueMonth {
  /** YYYY-MM. */
  month: string;
  mrrCents: number;
  payingMembers: number;
  /** MRR of members paying for the first time. */
  newCents: number;
  newMembers: number;
  /** Members paying more than the month before (another plan, a dearer one). */
  expansionCents: number;
  /** Members paying less than the month before (a cheaper plan, one of two ended). */
  contractionCents: number;
  /** MRR of members who paid the month before and not this month, nor on pause (a member leaving a pause brings none). */
  churnedCents: number;
  /** Of those members: the ones who ended it themselves (canceled, refunded). */
  churnedVoluntary: number;
  /** Of those members: the ones whose renewal failed and was never paid. */
  churnedInvoluntary: number;
  /** MRR of members paying again after a month or more without (not after a pause: that is resumed). */
  reactivatedCents: number;
  reactivatedMembers: number;
  /** Members on pause in the month: not paying, not churned. */
  membersOnPause: number;
  /** MRR of members who paid the month before and are on pause this month. */
  pausedCents: number;
  pausedMembers: number;
  /** MRR of members paying again after a pause. */
  resumedCents: number;
  resumedMembers: number;
  /** Refunds made in the month (not lost disputes) and their amount. */
  refunds: number;
  refundedCents: number;
  /** Disputes opened in the month, and of them how many were lost. */
  disputes: number;
  disputesLost: number;
  disputedCents: number;
  /** Renewals that failed in the month, and of them how many were paid later. */
  failedPayments: number;
  recoveredPayments: number;
}

/** Memberships that give access now, by the plan of the order that decides them. */
interface RevenuePlanMembers {
  planId: string;
  active: number;
  canceling: number;
  pastDue: number;
}

/** What each plan's buyers paid, up to the end of the range. */
export interface RevenuePlanValue {
  planId: string;
  /** Paid orders of the plan. */
  buyers: number;
  /** Payments less refunds. */
  netCents: number;
  /** netCents / buyers. */
  averageCents: number;
  /**
   * Expected revenue of a buyer: for subscriptions, the average payment per month of membership
   * (months on pause count, at nothing) divided by the plan's monthly churn over the range (null
   * while none churned); for other plans, averageCents.
   */
  lifetimeValueCents: number | null;
}

/**
 * The members who first paid in one month, and how many of them were still members (paying, or on
 * pause) N months after (index N, 0 = that month).
 */
export interface RevenueCohort {
  month: string;
  members: number;
  paying: number[];
}

export interface RevenueReport {
  mode: RevenueMode;
  currency: string;
  /** First and last month of the range, YYYY-MM. */
  from: string;
  to: string;
  /** Subscriptions active or retrying a failed renewal now, each at its last payment per month. */
  mrrNowCents: number;
  payingNow: number;
  months: RevenueMonth[];
  activeByPlan: RevenuePlanMembers[];
  plans: RevenuePlanValue[];
  cohorts: RevenueCohort[];
  /** Failed renewals in the range and the share of them paid later. */
  recovery: { failed: number; recovered: number; rate: number };
  /**
   * One-click upsells: buyers of the default plan in the range, how many of them bought with one
   * click after it (the order named it as its source), and what they bought.
   */
  oneClick: { buyers: number; took: number; rate: number; byPlan: Array<{ planId: string; orders: number }> };
}

/** The tables GET /api/admin/revenue/{table}.csv exports. */
export const REVENUE_TABLES = ['months', 'members', 'plans', 'cohorts'] as const;
export type RevenueTable = (typeof REVENUE_TABLES)[number];
