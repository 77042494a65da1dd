/** Admin sign-in and testimonial-manager shapes, shared by the API, the CLI and the SPA. */
import type { Testimonial } from './api-types';
import type { PaymentProviderName } from './payments';
import { OFFERS } from './plans';

/** Header that carries the CSRF token (from the session answer) on every mutating admin call. */
export const ADMIN_CSRF_HEADER = 'x-csrf-token';

/** Shortest password `npm run admin:create` accepts. */
export const ADMIN_PASSWORD_MIN_LENGTH = 12;

/** The one answer to a failed sign-in, whether the address has an account or not. */
export const ADMIN_LOGIN_FAILED_MESSAGE = 'Invalid email or password';

export const TESTIMONIAL_RATING_MIN = 1;
export const TESTIMONIAL_RATING_MAX = 5;
/** The spec's create form has no rating input and always sends this. */
export const TESTIMONIAL_DEFAULT_RATING = 5;

export interface AdminLoginRequest {
  email: string;
  password: string;
}

/** GET /api/admin/session and POST /api/admin/login. */
export interface AdminSessionResponse {
  email: string;
  /** Send it in ADMIN_CSRF_HEADER on POST, PATCH and DELETE; valid for this session only. */
  csrfToken: string;
  /** ISO time at which the session ends (absolute lifetime). */
  expiresAt: string;
  /** The provider that takes payments: the 'Sandbox clock' screen is offered only with the sandbox. */
  paymentProvider: PaymentProviderName;
}

/** GET /api/testimonials (admin): the spec's shape plus the position among featured ones. */
export interface AdminTestimonial extends Testimonial {
  displayOrder: number;
}

/** POST /api/testimonials: the spec's body. Empty URL strings mean no URL. */
export interface CreateTestimonialRequest {
  name: string;
  title: string;
  content: string;
  videoUrl?: string | null;
  imageUrl?: string | null;
  rating?: number;
  featured?: boolean;
}

/**
 * PATCH /api/testimonials/{id}: any subset. `displayOrder` is the 0-based position among the
 * featured testimonials; the others move to make room.
 */
export interface UpdateTestimonialRequest extends Partial<CreateTestimonialRequest> {
  displayOrder?: number;
}

/** What the audit log records; the dashboard shows these. */
export type AdminAuditAction =
  | 'sign-in'
  | 'sign-in.failed'
  | 'sign-out'
  | 'account.create'
  | 'account.password'
  | 'testimonial.create'
  | 'testimonial.update'
  | 'testimonial.delete'
  /**
   * Queue dashboard (/admin/queues): target `queue:<name>`, `queue:<name>/<state>`, `job:<queue>/<job id>` or `queues:all`.
   * `queue.retry` also records a retry from the list of jobs that gave up (target `job:<queue>/<job id>`).
   */
  | 'queue.retry'
  | 'queue.clean'
  | 'queue.promote'
  | 'queue.pause'
  | 'queue.resume'
  | 'leads.export-csv'
  | 'orders.export-csv'
  | 'members.export-csv'
  | 'person.view'
  | 'person.export'
  | 'person.erase'
  /** A refund requested from the orders screen: target `payment:<payments.id>/refund:<refunds.id>`. */
  | 'payment.refund'
  /** An instalment plan's later charges stopped from the orders screen: target `order:<orders.id>`. */
  | 'order.stop-instalments'
  /** A coupon created or deactivated on the coupons screen: target `coupon:<code>`. */
  | 'coupon.create'
  | 'coupon.deactivate';

/** POST /api/beacon: what the SPA reports about a visit. Anonymous by design: no e-mail, name or query string. */
export type FunnelEventType = 'page_view' | 'checkout_start';

export interface BeaconRequest {
  type: FunnelEventType;
  /** A random id the browser keeps in localStorage; it names a device, not a person. */
  visitorId: string;
  /** The page path only. */
  path: string;
  /** The plan of a checkout start (its id or its catalogue name). */
  plan?: string | null;
  referral?: string | null;
}

/** Plans a buyer of the default plan can add (both upsells): the upgrade take rate counts buyers who bought one of these. */
export const UPGRADE_PLAN_IDS: readonly string[] = [...OFFERS.upgrade, ...(OFFERS.levelTwo ? [OFFERS.levelTwo] : [])].map(
  (plan) => plan.id,
);

export interface FunnelStages {
  visitors: number;
  leads: number;
  checkouts: number;
  purchases: number;
  revenueCents: number;
}

export interface FunnelPlanRow {
  planId: string;
  checkouts: number;
  purchases: number;
  revenueCents: number;
  /** Paid orders whose checkout offered the add-on (order bump), and of those, how many took it. */
  bumpOffered: number;
  bumpTaken: number;
}

/** referral null: visits, leads and orders that came without one. */
export interface FunnelReferralRow extends FunnelStages {
  referral: string | null;
}

/** GET /api/admin/funnel?from=&to= (from inclusive, to exclusive, ISO times). */
export interface FunnelReport {
  from: string;
  to: string;
  /** Live orders only (real money); test orders are in `testOrders`. */
  totals: FunnelStages;
  /** Paid test orders in the range (the sandbox, Stripe test mode): never counted as revenue. */
  testOrders: { purchases: number; revenueCents: number };
  byPlan: FunnelPlanRow[];
  byReferral: FunnelReferralRow[];
  upgrade: {
    /** People (distinct e-mails) whose order of the default plan (site.json offers.default) was paid in the range. */
    standardBuyers: number;
    /** Of those, how many paid for an upgrade plan at any time before the end of the range. */
    upgraded: number;
    /** upgraded / standardBuyers, 0 when there were no standard buyers. */
    rate: number;
    byPlan: Array<{ planId: string; buyers: number }>;
  };
  invitations: {
    /** Invitations first requested in the range. */
    invited: number;
    /** Of those, opened with a valid access token before the end of the range. */
    verified: number;
    /** Of those, with a paid order (its invite token, or a blackcard order from the same e-mail) before the end of the range. */
    purchased: number;
  };
  reminders: {
    /** Abandoned-checkout reminder e-mails sent in the range. */
    sent: number;
    /** Orders (live or test) paid by those addresses within 7 days after their reminder. */
    paidWithin7Days: number;
  };
}

export interface AdminPage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export interface AdminLeadRow {
  id: string;
  email: string;
  name: string | null;
  phone: string | null;
  referral: string | null;
  submissionCount: number;
  firstSubmittedAt: string;
  lastSubmittedAt: string;
}

export interface AdminOrderRow {
  id: string;
  email: string;
  name: string;
  planId: string;
  amountCents: number;
  currency: string;
  status: string;
  source: string;
  referral: string | null;
  createdAt: string;
  paidAt: string | null;
}

/** GET /api/admin/members: one buyer's access to one product, decided by their paid orders. */
export interface AdminMemberRow {
  id: string;
  /** The address as typed on the deciding order. */
  email: string;
  name: string | null;
  product: string;
  /** How the admin names the product (the programme, or its plan's name): the pages' settings carry no products. */
  productName: string;
  /** active, canceling, past_due or ended. */
  status: string;
  /** The plan of the order that decides the status now. */
  planId: string | null;
  orderId: string | null;
  grantedAt: string;
  endedAt: string | null;
  updatedAt: string;
}

/** GET /api/admin/people?email=: every row held about one e-mail address, as stored (token hashes left out). */
export interface PersonData {
  email: string;
  lead: Record<string, unknown> | null;
  leadSubmissions: Record<string, unknown>[];
  invitation: Record<string, unknown> | null;
  invitationSubmissions: Record<string, unknown>[];
  invitationTokens: Array<{ issue: number; expiresAt: string; createdAt: string }>;
  orders: Record<string, unknown>[];
  accountLinks: Array<{ id: string; expires_at: string; used_at: string | null; created_at: string }>;
  accountSessions: Array<{ expires_at: string; created_at: string }>;
  sideEffects: Record<string, unknown>[];
  /** When the address unsubscribed from marketing e-mail; null if it has not. */
  emailSuppression: { unsubscribedAt: string } | null;
}

/** POST /api/admin/people/erase. */
export interface ErasePersonRequest {
  email: string;
}

export interface ErasePersonResponse {
  erased: {
    leads: number;
    leadSubmissions: number;
    invitations: number;
    invitationSubmissions: number;
    invitationTokens: number;
    orders: number;
    /** The account page's sign-in links and sessions, deleted. */
    accountLinks: number;
    accountSessions: number;
    /** The address's unsubscribe from marketing e-mail, deleted with it. */
    emailSuppressions: number;
  };
}

/**
 * A background job that gave up: it kept failing until its retry horizon (JOB_RETRY_HORIZON_S)
 * passed, or was refused for good. It stays on GET /api/admin/exhausted-jobs until an admin
 * retries it.
 */
interface ExhaustedJob {
  /** The job's id in its queue (its outbox row's id): a retry runs under the same id and side-effect keys. */
  id: string;
  queue: string;
  job: string;
  /** The last error, redacted of e-mail addresses. */
  reason: string | null;
  /** When the job was owed (ISO time). */
  owedAt: string;
  /** When it gave up (ISO time). */
  gaveUpAt: string;
  /** How many times it was handed to the queue (redispatches included). */
  dispatchCount: number;
}

/** GET /api/admin/exhausted-jobs: the most recent first, at most EXHAUSTED_JOBS_SHOWN of `total`. */
export interface ExhaustedJobList {
  items: ExhaustedJob[];
  total: number;
}

export const EXHAUSTED_JOBS_SHOWN = 100;

/** POST /api/admin/exhausted-jobs/{id}/retry: the job is offered again under the same id, with a fresh retry horizon. */
export interface ExhaustedJobRetry {
  id: string;
  queue: string;
  job: string;
}

/** GET /api/admin/audit: newest first. */
export interface AdminAuditRow {
  id: string;
  at: string;
  action: AdminAuditAction;
  /** The admin's e-mail; null for a failed sign-in to an unknown address or a removed account. */
  admin: string | null;
  target: string | null;
  clientIp: string | null;
  /** What the target alone does not say: a refund's `refundId`, `amountCents` and `currency`. */
  details: Record<string, string | number> | null;
}

/** One refund of a payment (reason 'dispute': a lost chargeback). Status 'requested' while the provider has not answered. */
export interface AdminRefund {
  id: string;
  paymentId: string;
  amountCents: number;
  status: 'requested' | 'pending' | 'succeeded' | 'failed' | 'canceled';
  reason: 'refund' | 'dispute';
  createdAt: string;
  /** The e-mail of the admin who asked for it; null for one made in the provider's dashboard or by a lost dispute, or whose admin was removed. */
  requestedBy: string | null;
}

/** One successful charge of an order, with what was refunded of it and what can still be. */
export interface AdminPayment {
  id: string;
  /** 1 for the order's first payment, then 2, 3… */
  sequence: number;
  amountCents: number;
  currency: string;
  paidAt: string;
  providerPaymentId: string;
  refundedCents: number;
  refundableCents: number;
  refunds: AdminRefund[];
}

/** GET /api/admin/billing/orders?q=&page=&pageSize=: q is part of the e-mail or a whole order id. */
export interface AdminBillingOrder {
  id: string;
  email: string;
  name: string;
  planId: string;
  kind: string;
  amountCents: number;
  currency: string;
  status: string;
  provider: string;
  /** The sandbox or Stripe's test mode: no sale, no money moved. */
  testOrder: boolean;
  createdAt: string;
  paidAt: string | null;
  refundedCents: number;
  /** When a full refund or a lost dispute ended the membership's access. */
  accessRevokedAt: string | null;
  disputeStatus: 'disputed' | 'won' | 'lost' | null;
  /** An instalment plan's number of charges, the first included; null for other plans. */
  instalments: number | null;
  /** When the admin (or an erasure) stopped the plan's later charges. */
  instalmentsStoppedAt: string | null;
  /** The add-on (order bump) the first payment included, which the admin may refund alone; null without one. */
  bump: { planId: string; amountCents: number } | null;
  payments: AdminPayment[];
}

/** POST /api/admin/billing/orders/{orderId}/stop-instalments: the plan stopped (now, or before). */
export interface AdminInstalmentStop {
  orderId: string;
  instalmentsStoppedAt: string;
}

/**
 * POST /api/admin/billing/payments/{paymentId}/refunds. `requestKey` is a UUID the dialog makes
 * when it opens: the same key is the same refund, however often it is sent.
 */
export interface AdminRefundRequest {
  requestKey: string;
  /** Cents; what is left of the payment when omitted. */
  amountCents?: number;
  /** 'bump': the add-on (order bump) alone, at what it charged with this first payment (amountCents is then ignored). */
  line?: 'bump';
}
