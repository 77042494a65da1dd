/** Why a member asked to cancel: the one question of the cancellation flow. */
export const CANCEL_REASONS = ['too_expensive', 'not_using', 'missing_feature', 'technical_problem', 'other'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** How many months a member may pause for instead of cancelling. */
export const PAUSE_MONTHS = [1, 2, 3] as const;
export type PauseMonths = (typeof PAUSE_MONTHS)[number];

/** What a cancellation flow came to: canceled at the period's end, paused, or kept with the save offer's discount. */
export type CancellationOutcome = 'canceled' | 'paused' | 'discounted';

/** Free text of the 'other' reason, at most this long. */
export const CANCEL_DETAIL_MAX = 500;

/** The one offer a reason gets: the discount where the price is the reason (when the member may still have it), else a pause. */
export type RetentionOfferKind = 'pause' | 'discount';

export function offerFor(reason: CancelReason, discountAvailable: boolean): RetentionOfferKind {
  return reason === 'too_expensive' && discountAvailable ? 'discount' : 'pause';
}

/** The save offer's discount as the member is shown it: the admin's coupon, taken off the next renewal once. */
export interface SaveOfferDiscount {
  percentOff: number | null;
  amountOffCents: number | null;
  /** Lower case ISO code of `amountOffCents`. */
  currency: string;
}

/** The answer to the survey, sent with whatever the member then chooses. */
export interface CancellationAnswer {
  orderId: string;
  /** Omitted: cancelled straight away without answering. */
  reason?: CancelReason;
  /** Free text, with reason 'other'. */
  detail?: string;
}

/** POST /api/account/pause. */
export interface PauseRequest extends CancellationAnswer {
  reason: CancelReason;
  months: PauseMonths;
}

/** POST /api/account/save-offer. */
export interface SaveOfferRequest extends CancellationAnswer {
  reason: CancelReason;
}

/** GET /api/admin/cancellations: what members answered and what came of it. */
export interface AdminCancellations {
  counts: Array<{ reason: CancelReason | null; outcome: CancellationOutcome; count: number }>;
  recent: Array<{
    createdAt: string;
    planId: string;
    reason: CancelReason | null;
    detail: string | null;
    outcome: CancellationOutcome;
    pauseMonths: number | null;
  }>;
}
