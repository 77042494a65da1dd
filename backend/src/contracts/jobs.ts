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
} as const;

export type JobName = (typeof JOBS)[keyof typeof JOBS];

export interface AffiliateSignupPayload {
  leadId: string;
}

/** A stored webhook event (payment_events.id, Stripe's `evt_…`) to apply to its order. */
export interface PaymentEventPayload {
  eventId: string;
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
 * The account sign-in e-mail for one link token (`account_link_tokens.id`). Like the invitation's,
 * the token is sealed (AES-256-GCM under INVITATION_TOKEN_KEY, bound to this token id): the
 * database keeps only its hash, the outbox and Redis never hold it in the clear.
 */
export interface AccountLinkEmailPayload {
  tokenId: string;
  sealedToken: string;
}

/**
 * An erased person's customer at a payment provider (`orders.customer_id`), to be deleted there:
 * owed by the erasure, in its transaction.
 */
export interface ForgetCustomerPayload {
  provider: PaymentProviderName;
  customerId: string;
}

/** The daily retention pass; the worker's job scheduler adds it, nothing owes it. */
export type DataRetentionPayload = Record<string, never>;

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
  | { name: typeof JOBS.dataRetention; data: DataRetentionPayload };

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
} as const;

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
