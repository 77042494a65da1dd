import type { PaymentProviderName } from './payments';

/**
 * Queue names, job names and payloads. These strings are persisted (in Redis and in the outbox
 * table), so they are defined here once and never renamed casually.
 */
export const QUEUES = {
  tracking: 'tracking',
  payments: 'payments',
  invitations: 'invitations',
  /** Housekeeping the worker schedules itself (data retention), one job at a time. */
  maintenance: 'maintenance',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const JOBS = {
  affiliateSignup: 'affiliate-signup',
  paymentEvent: 'payment-event',
  sandboxWebhook: 'sandbox-webhook',
  orderPaid: 'order-paid',
  paymentPaid: 'payment-paid',
  invitationEmail: 'invitation-email',
  accountLinkEmail: 'account-link-email',
  forgetCustomer: 'forget-customer',
  dataRetention: 'data-retention',
  scheduleInstalments: 'schedule-instalments',
  stopInstalments: 'stop-instalments',
  paymentFailed: 'payment-failed',
  membershipEnded: 'membership-ended',
  membershipCanceled: 'membership-canceled',
  membershipWebhook: 'membership-webhook',
  refundRecorded: 'refund-recorded',
  disputeChanged: 'dispute-changed',
  abandonedCheckoutEmail: 'abandoned-checkout-email',
  repairPaymentIds: 'repair-payment-ids',
  pauseEnding: 'pause-ending',
} as const;

export type JobName = (typeof JOBS)[keyof typeof JOBS];

export interface AffiliateSignupPayload {
  leadId: string;
}

/** A stored webhook event (payment_events.id, Stripe's `evt_…`) to apply to its order. */
export interface PaymentEventPayload {
  eventId: string;
  /**
   * Further events stored in the same transaction (the sandbox's: a subscription created with its
   * first invoice), applied by the same job after `eventId`, in order. A worker that predates this
   * field applies only `eventId`; the reconciler applies the rest once they are stale.
   */
  moreEventIds?: string[];
}

/** An event in Stripe's webhook shape, as the offline sandbox emits it. */
export interface SandboxWebhookEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: string;
  data: { object: Record<string, unknown> };
}

/** The sandbox's event, to be POSTed to the webhook endpoint signed with SANDBOX_WEBHOOK_SECRET at delivery time. */
export interface SandboxWebhookPayload {
  event: SandboxWebhookEvent;
}

/** An order that has just been paid for the first time: its paid side effects are owed. */
export interface OrderPaidPayload {
  orderId: string;
}

/**
 * A later paid charge of an order (a renewal or an instalment, `payments.id`): its own paid
 * side effects are owed, keyed by the payment.
 */
export interface PaymentPaidPayload {
  paymentId: string;
}

/**
 * The invitation e-mail for the access token `issue` of an invitation. The token itself is
 * sealed (AES-256-GCM under INVITATION_TOKEN_KEY, bound to this invitation and issue): the
 * database keeps only its hash, and the outbox and Redis never hold it in the clear.
 */
export interface InvitationEmailPayload {
  invitationId: string;
  issue: number;
  sealedToken: string;
}

/**
 * A sign-in link asked for on /account, owed alike whether or not the address has ordered: the
 * worker decides whether a link is issued and sent. The address is sealed (AES-256-GCM under
 * INVITATION_TOKEN_KEY, bound to `requestId`), so the outbox and Redis never hold it in the clear.
 */
export interface AccountLinkRequestPayload {
  /** Random; the link token's id (`account_link_tokens.id`) once the worker issues one. */
  requestId: string;
  sealedEmail: string;
}

/**
 * What an API before the request payload owed: a link token it had issued itself, sealed and
 * bound to its token id. A worker still sends these (left in the outbox across a deploy).
 */
interface IssuedAccountLinkPayload {
  tokenId: string;
  sealedToken: string;
}

export type AccountLinkEmailPayload = AccountLinkRequestPayload | IssuedAccountLinkPayload;

/**
 * An erased person's customer at a payment provider (`orders.customer_id`), to be deleted there:
 * owed by the erasure, in its transaction.
 */
export interface ForgetCustomerPayload {
  provider: PaymentProviderName;
  customerId: string;
}

/**
 * An instalment plan's order whose first charge was paid: its later instalments are to be
 * scheduled at the provider, on the card of that charge.
 */
export interface ScheduleInstalmentsPayload {
  orderId: string;
}

/**
 * An instalment plan stopped by the admin or by its buyer's erasure (`orders.instalments_stopped_at`):
 * its schedule at the provider is to be canceled, so nothing more is charged.
 */
export interface StopInstalmentsPayload {
  orderId: string;
}

/**
 * A renewal or a later instalment of an order that the provider failed to charge (its invoice):
 * the buyer is told, once per invoice, and asked to update the card.
 */
export interface PaymentFailedPayload {
  orderId: string;
  invoiceId: string;
}

/** A paid order whose subscription ended before it was paid in full or canceled at the buyer's request: its access ended. */
export interface MembershipEndedPayload {
  orderId: string;
  /**
   * Which ending: the buyer's membership's access changes as this ending left them, so an order
   * that ends again after a payment restored it is told again. Absent in jobs owed before it was
   * added: those are keyed by the order alone.
   */
  sequence?: number;
}

/** A subscription the buyer set to end with its current period (on /account or in the billing portal): they are told when. */
export interface MembershipCanceledPayload {
  orderId: string;
  /** ISO time the period, and with it the membership, ends. */
  endsAt: string;
}

/** A member's pause (from the cancellation flow) ends in a few days: they are told when charges resume. */
export interface PauseEndingPayload {
  orderId: string;
  /** `cancellation_feedback.id` of the pause: one reminder per pause. */
  pauseId: string;
  /** ISO time the pause ends and the provider charges again. */
  resumesAt: string;
}

/**
 * A membership's access changed (granted, or ended): the members area is told by the signed
 * membership webhook. `change` counts the membership's access changes, so each is sent once;
 * what is sent is the membership as it is when the job runs (`event` only names the change).
 */
export interface MembershipWebhookPayload {
  membershipId: string;
  change: number;
  event: 'membership.access_granted' | 'membership.access_ended';
}

/**
 * A refund that has just succeeded (`refunds.id`: made from admin, in the provider's dashboard,
 * or a lost dispute): its effects are owed, each keyed by the refund.
 */
export interface RefundRecordedPayload {
  refundId: string;
}

/** A dispute that has just moved (`disputes.id`) to `status`: the owner's e-mail about it is owed, once per status. */
export interface DisputeChangedPayload {
  disputeId: string;
  status: 'disputed' | 'won' | 'lost';
}

/**
 * A lead saved ABANDONED_CHECKOUT_DELAY_S ago (owed delayed, in the lead's transaction): its
 * one reminder to finish the checkout, unless the address has paid or unsubscribed since.
 */
export interface AbandonedCheckoutEmailPayload {
  leadId: string;
}

/** The daily retention pass; the worker's job scheduler adds it, nothing owes it. */
type DataRetentionPayload = Record<string, never>;

/**
 * A pass over the first payments still recorded under their order's own id, each given the
 * provider's id as the provider says it (owed by a worker at boot when there are any).
 */
type RepairPaymentIdsPayload = Record<string, never>;

/** Every job the system can run: the discriminated union the producer and processors share. */
export type JobItem =
  | { name: typeof JOBS.affiliateSignup; data: AffiliateSignupPayload }
  | { name: typeof JOBS.paymentEvent; data: PaymentEventPayload }
  | { name: typeof JOBS.sandboxWebhook; data: SandboxWebhookPayload }
  | { name: typeof JOBS.orderPaid; data: OrderPaidPayload }
  | { name: typeof JOBS.paymentPaid; data: PaymentPaidPayload }
  | { name: typeof JOBS.invitationEmail; data: InvitationEmailPayload }
  | { name: typeof JOBS.accountLinkEmail; data: AccountLinkEmailPayload }
  | { name: typeof JOBS.forgetCustomer; data: ForgetCustomerPayload }
  | { name: typeof JOBS.dataRetention; data: DataRetentionPayload }
  | { name: typeof JOBS.scheduleInstalments; data: ScheduleInstalmentsPayload }
  | { name: typeof JOBS.stopInstalments; data: StopInstalmentsPayload }
  | { name: typeof JOBS.paymentFailed; data: PaymentFailedPayload }
  | { name: typeof JOBS.membershipEnded; data: MembershipEndedPayload }
  | { name: typeof JOBS.membershipCanceled; data: MembershipCanceledPayload }
  | { name: typeof JOBS.membershipWebhook; data: MembershipWebhookPayload }
  | { name: typeof JOBS.refundRecorded; data: RefundRecordedPayload }
  | { name: typeof JOBS.disputeChanged; data: DisputeChangedPayload }
  | { name: typeof JOBS.abandonedCheckoutEmail; data: AbandonedCheckoutEmailPayload }
  | { name: typeof JOBS.repairPaymentIds; data: RepairPaymentIdsPayload }
  | { name: typeof JOBS.pauseEnding; data: PauseEndingPayload };

export type JobPayload<N extends JobName> = Extract<JobItem, { name: N }>['data'];

/** Which queue carries each job: the worker checks at start that each has exactly one `@OnJob` handler. */
export const JOB_QUEUE: Readonly<Record<JobName, QueueName>> = {
  [JOBS.affiliateSignup]: QUEUES.tracking,
  [JOBS.paymentEvent]: QUEUES.payments,
  [JOBS.sandboxWebhook]: QUEUES.payments,
  [JOBS.orderPaid]: QUEUES.payments,
  [JOBS.paymentPaid]: QUEUES.payments,
  [JOBS.invitationEmail]: QUEUES.invitations,
  [JOBS.accountLinkEmail]: QUEUES.invitations,
  [JOBS.forgetCustomer]: QUEUES.payments,
  [JOBS.dataRetention]: QUEUES.maintenance,
  [JOBS.scheduleInstalments]: QUEUES.payments,
  [JOBS.stopInstalments]: QUEUES.payments,
  [JOBS.paymentFailed]: QUEUES.payments,
  [JOBS.membershipEnded]: QUEUES.payments,
  [JOBS.membershipCanceled]: QUEUES.payments,
  [JOBS.membershipWebhook]: QUEUES.tracking,
  [JOBS.refundRecorded]: QUEUES.payments,
  [JOBS.disputeChanged]: QUEUES.payments,
  [JOBS.abandonedCheckoutEmail]: QUEUES.invitations,
  [JOBS.repairPaymentIds]: QUEUES.maintenance,
  [JOBS.pauseEnding]: QUEUES.payments,
};

/**
 * Kinds of external side effects in the `side_effects` ledger. Persisted like job names: a
 * ledger key is `<kind>:<subject id>` and is sent to the provider as the idempotency key.
 */
export const SIDE_EFFECTS = {
  affiliateSignup: 'affiliate-signup',
  affiliateSale: 'affiliate-sale',
  metaPurchase: 'meta-purchase',
  ga4Purchase: 'ga4-purchase',
  receiptEmail: 'receipt-email',
  /** Keyed `invitation-email:<invitation id>:<token issue>`: one e-mail per token issued for e-mail. */
  invitationEmail: 'invitation-email',
  /** Keyed `account-link-email:<account link token id>`: one sign-in e-mail per link issued. */
  accountLinkEmail: 'account-link-email',
  /** Keyed `forget-customer:<provider customer id>`: an erased person's customer, deleted at the provider once. */
  forgetCustomer: 'forget-customer',
  /** Keyed `instalment-schedule:<order id>`: an instalment plan's later charges, scheduled at the provider once. */
  instalmentSchedule: 'instalment-schedule',
  /**
   * Keyed `stop-instalments:<schedule id>`: an instalment plan's schedule canceled at the provider
   * once, whichever stopped it first (a full refund, a lost dispute, an erasure, the admin).
   */
  stopInstalments: 'stop-instalments',
  /** Keyed `payment-failed-email:<invoice id>`: one e-mail per invoice that could not be charged. */
  paymentFailedEmail: 'payment-failed-email',
  /** Keyed `membership-ended-email:<order id>:<membership sequence>`: one e-mail per ending of the order's access. */
  membershipEndedEmail: 'membership-ended-email',
  /** Keyed `membership-canceled-email:<order id>:<period end>`: one e-mail per cancellation of a period. */
  membershipCanceledEmail: 'membership-canceled-email',
  /** Keyed `pause-ending-email:<pause id>`: one reminder per pause, a few days before charges resume. */
  pauseEndingEmail: 'pause-ending-email',
  /** Keyed `membership-webhook:<membership id>:<change>`: each access change told to the members area once. */
  membershipWebhook: 'membership-webhook',
  /** Keyed `refund-email:<refund id>`: the buyer's refund e-mail. */
  refundEmail: 'refund-email',
  /** Keyed `affiliate-refund:<refund id>`: the commission reversal (FirstPromoter's refund tracking). */
  affiliateRefund: 'affiliate-refund',
  /** Keyed `ga4-refund:<refund id>`: the GA4 Measurement Protocol refund event. */
  ga4Refund: 'ga4-refund',
  /**
   * Keyed `cancel-subscription:<refund id>`: a fully refunded membership's subscription, canceled at
   * once. For an instalment plan this effect stops its schedule (`stop-instalments`) instead.
   */
  cancelSubscription: 'cancel-subscription',
  /** Keyed `dispute-email:<dispute id>:<status>`: the owner's e-mail about a dispute, once per status. */
  disputeEmail: 'dispute-email',
  /** Keyed `abandoned-checkout-email:<lead id>`: one checkout reminder per lead, ever. */
  abandonedCheckoutEmail: 'abandoned-checkout-email',
} as const;

/** The effects `refund-recorded` owes for a refund, each keyed `<kind>:<refund id>`. */
export const REFUND_EFFECTS = [
  SIDE_EFFECTS.refundEmail,
  SIDE_EFFECTS.affiliateRefund,
  SIDE_EFFECTS.ga4Refund,
  SIDE_EFFECTS.cancelSubscription,
] as const;

export type RefundEffect = (typeof REFUND_EFFECTS)[number];

export type SideEffectKind = (typeof SIDE_EFFECTS)[keyof typeof SIDE_EFFECTS];

/**
 * The side effects `order-paid` owes for every paid order, each keyed `<kind>:<order id>`. The
 * payment reconciler re-owes `order-paid` for a paid order with one of them missing from the ledger.
 */
export const ORDER_PAID_EFFECTS = [
  SIDE_EFFECTS.affiliateSale,
  SIDE_EFFECTS.metaPurchase,
  SIDE_EFFECTS.ga4Purchase,
  SIDE_EFFECTS.receiptEmail,
] as const satisfies readonly SideEffectKind[];

export type OrderPaidEffect = (typeof ORDER_PAID_EFFECTS)[number];
