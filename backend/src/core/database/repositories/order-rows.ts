import type { PaymentProviderName } from '@contracts/payments';
import type { PaymentKind, PlanId } from '@contracts/plans';
import type { PaymentRow } from './payment.repository';

/**
 * The statuses an order may hold, in the gateway's neutral words: which moves between them are
 * allowed, per payment kind, is the lifecycle's to say (core/orders/order-state.ts).
 */
export const ORDER_STATUSES = [
  'created',
  'requires_action',
  'processing',
  'succeeded',
  'failed',
  'canceled',
  'incomplete',
  'active',
  'past_due',
  'unpaid',
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** An `orders` row: one checkout attempt; its status moves only along `order-state.ts`. Amounts in cents. */
export interface OrderRow {
  id: string;
  plan_id: PlanId;
  kind: PaymentKind;
  amount_cents: number;
  currency: string;
  email: string;
  email_normalized: string;
  name: string;
  source: string;
  referral: string | null;
  /** SHA-256 of the invite token: enough to match it later, useless if the table leaks. */
  invitation_token_hash: string | null;
  lead_id: string | null;
  /** The lead's stored attribution (tid, ga_client_id, fbp, fbc…) for the sale and server-side Purchase. */
  attribution: Record<string, string>;
  provider: PaymentProviderName;
  setup_intent_id: string | null;
  payment_intent_id: string | null;
  customer_id: string | null;
  subscription_id: string | null;
  payment_method_id: string | null;
  status: OrderStatus;
  /** Shared by the browser's Purchase event and the server-side one, so ad platforms de-duplicate. */
  purchase_event_id: string;
  /** Set once, when the order first reaches succeeded or active: the paid side effects are owed then. */
  paid_at: Date | null;
  /** What became of each paid side effect, by side-effect kind: 'sent', 'skipped: not configured', 'failed: …'. */
  paid_effects: Record<string, string>;
  last_refreshed_at: Date | null;
  /** SHA-256 of the creating browser's buyer key (an httpOnly cookie): verification answers personal fields to it only. */
  buyer_key_hash: string | null;
  /** Real money (Stripe live mode); false for the sandbox and Stripe's test mode: a test order. */
  livemode: boolean;
  /** A one-click order: the order (of the same browser) whose saved card paid it. */
  one_click_source_id: string | null;
  /** An instalment plan's number of monthly charges, the first included; null for other plans. */
  instalments: number | null;
  /**
   * The provider's last word on the subscription the order holds (its membership's, or the one
   * charging its later instalments): active, past_due, canceled…; null while it holds none.
   */
  subscription_state: string | null;
  /** An instalment plan's schedule of its later charges at the provider (Stripe: `sub_sched_…`); null until it is made. */
  instalment_schedule_id: string | null;
  /** Set when a refund or a lost dispute ended the order's access (refund.repository). */
  access_revoked_at: Date | null;
  /** When the admin or an erasure stopped the plan's later charges: no schedule is made for it any more. */
  instalments_stopped_at: Date | null;
  /** The coupon the order was charged with (amount_cents is then the discounted amount), and its code as typed then. */
  coupon_id: string | null;
  coupon_code: string | null;
  /** The add-on (site.json offers.bump) the checkout offered with the plan; null when it offered none. */
  bump_plan_id: string | null;
  /** What the add-on charged with the first payment, when the buyer ticked it (amount_cents includes it); null otherwise. */
  bump_amount_cents: number | null;
  /** The subscription ends at the end of its current period (asked on /account, or in the provider's billing portal). */
  cancel_at_period_end: boolean;
  /** The member paused the membership from the cancellation flow: the provider charges nothing until then. */
  paused_until: Date | null;
  /** When the subscription's paid period ends, as the provider last said; null before it said. */
  current_period_end: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What claiming the buyer's one membership of a plan found (OrderRepository.claimMembership). */
export type MembershipClaim = 'claimed' | 'member' | 'member-unpaid' | 'awaiting-bank' | 'under-way';

/** A membership order still running at the provider (OrderRepository.runningMembershipOf). */
export type RunningMembership = 'active' | 'past_due' | 'unpaid';

/**
 * How long a claim stops other checkouts of the address and plan while its subscription is being
 * created (its answer may be lost): far longer than a subscription's create (the provider's
 * timeout and retries), short enough that a buyer whose create never answered is not kept from
 * buying for long. A claim whose first payment waits for the bank does not lapse with time.
 */
export const MEMBERSHIP_CLAIM_MINUTES = 15;

/** A paid order as the buyer's account page lists it, with its payments, first first. */
export type MembershipRow = Pick<
  OrderRow,
  | 'id'
  | 'plan_id'
  | 'kind'
  | 'status'
  | 'provider'
  | 'customer_id'
  | 'subscription_id'
  | 'cancel_at_period_end'
  | 'current_period_end'
  | 'paid_at'
  | 'paused_until'
> & { payments: Array<Pick<PaymentRow, 'sequence' | 'amount_cents' | 'currency'> & { paid_at: string }> };

/** What a provider says of a subscription's end: whether it ends at its period's end, and when that period ends. */
export interface SubscriptionTermsUpdate {
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
}

export interface NewOrder {
  planId: PlanId;
  kind: PaymentKind;
  amountCents: number;
  currency: string;
  email: string;
  emailNormalized: string;
  name: string;
  source: string;
  referral: string | null;
  invitationTokenHash: string | null;
  /** Attribution read from this request's cookies: it wins over the lead's stored values. */
  requestAttribution: Record<string, string>;
  /** How long a lead's stored affiliate credit (referral, tid) lasts: the affiliate cookie's lifetime. */
  leadCreditDays: number;
  provider: PaymentProviderName;
  /** SHA-256 of the creating browser's buyer key. */
  buyerKeyHash: string | null;
  /** Whether the gateway moves real money (see PaymentGateway.livemode). */
  livemode: boolean;
  /** The plan's number of instalments (Plan.instalments), if it is an instalment plan. */
  instalments: number | null;
  /** A one-click order: the earlier order of this browser whose saved card pays it (one per plan). */
  oneClickSourceId?: string | null;
  /** The coupon redeemed for it (amountCents is then the discounted amount). */
  couponId?: string | null;
  couponCode?: string | null;
  /** The add-on offered (bumpOffered) and, when ticked, its charge, already included in amountCents. */
  bumpPlanId?: string | null;
  bumpAmountCents?: number | null;
}

export type ProviderIds = Partial<
  Pick<OrderRow, 'setup_intent_id' | 'payment_intent_id' | 'customer_id' | 'subscription_id' | 'payment_method_id'>
>;

export type OrderIdColumn = 'payment_intent_id' | 'setup_intent_id' | 'subscription_id';

/** What the admin's stop of an instalment plan came to: stopped (now or before), or why it cannot be. */
export type InstalmentStop =
  { stoppedAt: Date } | { refused: 'not found' | 'not an instalment plan' | 'not paid' | 'access revoked' | 'paid in full' };

/** A provider object an order may hold, and the order id its metadata names (if any). */
export interface OrderLookup {
  column: OrderIdColumn;
  objectId: string;
  orderRef?: string;
}

/**
 * The id of the order holding provider object $1 in `column`; else of order $2 (the object's
 * metadata) if that order holds no object of this kind.
 */
export const orderIdOf = (column: OrderIdColumn) =>
  `(SELECT id, 0 AS rank FROM orders WHERE ${column} = $1)
   UNION ALL
   (SELECT id, 1 AS rank FROM orders WHERE $2::uuid IS NOT NULL AND id = $2::uuid AND ${column} IS NULL)
   ORDER BY rank LIMIT 1`;

/**
 * An order's row as it stands under its lock in the caller's transaction: what applying a status
 * and the webhook path need of it (its billing columns and the ids of its provider objects).
 */
export type LockedOrder = OrderBilling &
  Pick<OrderRow, 'status' | 'payment_intent_id' | 'setup_intent_id' | 'email_normalized' | 'plan_id'>;

/** What `LockedOrder` holds, as the statements that lock an order read it. */
export const LOCKED_COLUMNS = `id, kind, status, paid_at, instalments, subscription_id, subscription_state, access_revoked_at, payment_intent_id,
            setup_intent_id, email_normalized, plan_id`;

/** What the webhook path needs of an order to record its later payments and its subscription's state. */
export type OrderBilling = Pick<OrderRow, 'id' | 'kind' | 'paid_at' | 'subscription_id' | 'subscription_state' | 'instalments'> & {
  /** Set when a refund or a lost dispute ended the order's access (refund.repository). */
  access_revoked_at: Date | null;
};
