import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { JOBS } from '@contracts/jobs';
import type { PaymentProviderName } from '@contracts/payments';
import type { PaymentKind, PlanId } from '@contracts/plans';
import { owe, OwedJobs } from '../../queue/owe';
import { advance, isPaid, OrderStatus, SETTLED_STATUSES } from '../../orders/order-state';
import type { PersonalDataOwner, PersonErasure, PersonFindings, PersonKey, SqlExecutor, TableColumns } from '../personal-data';
import type { GroupedRow } from './grouped-row';
import { syncMembership } from './membership.repository';
import { clearPastDue } from './past-due.repository';
import { affectedRows } from './sql-results';

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
  /** The subscription ends at the end of its current period (asked on /account, or in the provider's billing portal). */
  cancel_at_period_end: boolean;
  /** When the subscription's paid period ends, as the provider last said; null before it said. */
  current_period_end: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What claiming the buyer's one membership of a plan found (OrderRepository.claimMembership). */
export type MembershipClaim = 'claimed' | 'member' | 'under-way';

/**
 * How long a claim stops other checkouts of the address and plan while its order holds no running
 * membership: far longer than a subscription's create (the provider's timeout and retries) and a
 * bank's challenge answered in the open tab, short enough that a buyer who gave up on one is not
 * kept from buying for long.
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
> & { payments: Array<Pick<PaymentRow, 'sequence' | 'amount_cents' | 'currency'> & { paid_at: string }> };

/** What a provider says of a subscription's end: whether it ends at its period's end, and when that period ends. */
export interface SubscriptionTermsUpdate {
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
}

export const ORDER_TABLES: readonly TableColumns[] = [
  {
    table: 'orders',
    personal: ['email', 'email_normalized', 'name', 'attribution'],
    notPersonal: [
      'plan_id',
      'kind',
      'currency',
      'source',
      'referral',
      'invitation_token_hash',
      'provider',
      'setup_intent_id',
      'payment_intent_id',
      'customer_id',
      'subscription_id',
      'payment_method_id',
      'status',
      'paid_effects',
      'dispute_status',
      // The hash of a random key in a browser's cookie: it names a browser, not a person.
      'buyer_key_hash',
      'subscription_state',
      'instalment_schedule_id',
      // An admin-made coupon code, the same for every buyer who uses it.
      'coupon_code',
    ],
  },
  // A charge's amount, provider id and what became of its effects: found through its order, no person in it.
  { table: 'payments', personal: [], notPersonal: ['provider_payment_id', 'currency', 'paid_effects'] },
  // An invoice the provider could not charge: its id, found through its order.
  { table: 'payment_failures', personal: [], notPersonal: ['provider_invoice_id'] },
];

/** A `payments` row: one successful charge of an order (its first payment, a renewal or an instalment). */
export interface PaymentRow {
  id: string;
  order_id: string;
  /** The provider's id of the charge: the first payment's order object, or the invoice of a later one. */
  provider_payment_id: string;
  /** 1 for the order's first payment, then 2, 3… in the order they were recorded. */
  sequence: number;
  amount_cents: number;
  currency: string;
  paid_at: Date;
  /** What became of each of this payment's side effects (later payments only; the first one's are on the order). */
  paid_effects: Record<string, string>;
  created_at: Date;
}

/** A later paid charge of an order, as the provider reported it. */
export interface NewPayment {
  providerPaymentId: string;
  amountCents: number;
  currency: string;
  paidAt: Date;
}

/** The columns the admin lists and exports of an order. */
export type OrderListing = Pick<
  OrderRow,
  'id' | 'email' | 'name' | 'plan_id' | 'amount_cents' | 'currency' | 'status' | 'source' | 'referral' | 'created_at' | 'paid_at'
>;

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
}

export type ProviderIds = Partial<
  Pick<OrderRow, 'setup_intent_id' | 'payment_intent_id' | 'customer_id' | 'subscription_id' | 'payment_method_id'>
>;

const COLUMNS = `id, plan_id, kind, amount_cents, currency, email, email_normalized, name, source, referral, invitation_token_hash,
  lead_id, attribution, provider, setup_intent_id, payment_intent_id, customer_id, subscription_id, payment_method_id, status,
  purchase_event_id, paid_at, paid_effects, last_refreshed_at, buyer_key_hash, livemode, instalments, subscription_state,
  instalment_schedule_id, instalments_stopped_at, access_revoked_at, cancel_at_period_end, current_period_end, one_click_source_id,
  coupon_id, coupon_code, created_at, updated_at`;

/** A person's export: every column but the invitation token's hash. */
const PERSON_COLUMNS = `id, plan_id, kind, amount_cents, currency, email, email_normalized, name, source, referral, lead_id, attribution,
  provider, setup_intent_id, payment_intent_id, customer_id, subscription_id, payment_method_id, status, purchase_event_id, paid_at,
  paid_effects, last_refreshed_at, instalments, subscription_state, created_at, updated_at`;

const LISTING_COLUMNS = `id, email, name, plan_id, amount_cents, currency, status, source, referral, created_at, paid_at`;

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
const orderIdOf = (column: OrderIdColumn) =>
  `(SELECT id, 0 AS rank FROM orders WHERE ${column} = $1)
   UNION ALL
   (SELECT id, 1 AS rank FROM orders WHERE $2::uuid IS NOT NULL AND id = $2::uuid AND ${column} IS NULL)
   ORDER BY rank LIMIT 1`;

/**
 * A paid order (paid between $3 and $2 ms ago) with a paid effect of $1 neither finished in the
 * ledger nor skipped on purpose (not configured, no referral), and no `order-paid` job ($4) that
 * is still open or gave up (that one waits for an admin's retry).
 */
const MISSING_PAID_EFFECTS = `o.paid_at IS NOT NULL
  AND o.paid_at < now() - make_interval(secs => $2::float8 / 1000)
  AND o.paid_at > now() - make_interval(secs => $3::float8 / 1000)
  AND EXISTS (
    SELECT 1 FROM unnest($1::text[]) AS k(kind)
     WHERE COALESCE(o.paid_effects ->> k.kind, '') NOT LIKE 'skipped%'
       AND NOT EXISTS (SELECT 1 FROM side_effects s WHERE s.key = k.kind || ':' || o.id AND s.status <> 'claimed'))
  AND NOT EXISTS (
    SELECT 1 FROM outbox x WHERE x.job_name = $4 AND x.completed_at IS NULL AND x.payload ->> 'orderId' = o.id::text)`;

const ID_COLUMNS = new Set(['setup_intent_id', 'payment_intent_id', 'customer_id', 'subscription_id', 'payment_method_id']);

@Injectable()
export class OrderRepository implements PersonalDataOwner {
  readonly tables = ORDER_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * A new checkout attempt. The sale's credit goes to the paying browser: the request's own
   * referral or tracking id (tid) wins. A lead's stored credit is used only when the request
   * carries neither and the lead was first saved within `leadCreditDays` (anyone can post a lead
   * for somebody else's e-mail with their own cookie). The lead's other attribution (`_ga`,
   * fbp/fbc) fills in what the request lacks, for the server-side Purchase. The buyer's customer
   * at the provider, if an earlier order has one, is the new order's from the start (looked up in
   * the same statement), so one buyer stays one customer: the gateway charges it instead of
   * creating another.
   */
  async create(order: NewOrder, sql: SqlExecutor = this.dataSource): Promise<OrderRow> {
    const [row]: OrderRow[] = await sql.query(
      `INSERT INTO orders (plan_id, kind, amount_cents, currency, email, email_normalized, name, source, referral,
                           invitation_token_hash, lead_id, attribution, provider, buyer_key_hash, livemode, instalments,
                           coupon_id, coupon_code, one_click_source_id, customer_id)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9, CASE WHEN credit.lead THEN l.referral END), $10, l.id,
              CASE WHEN credit.lead THEN COALESCE(l.attribution, '{}'::jsonb) ELSE COALESCE(l.attribution, '{}'::jsonb) - 'tid' END
                || $11::jsonb,
              $12, $14, $15, $16, $17, $18, $19,
              (SELECT customer_id FROM orders WHERE email_normalized = $6 AND provider = $12 AND customer_id IS NOT NULL
                ORDER BY created_at LIMIT 1)
         FROM (SELECT 1) AS one
         LEFT JOIN leads l ON l.email_normalized = $6
         CROSS JOIN LATERAL (
           SELECT $9::text IS NULL AND NOT ($11::jsonb ? 'tid')
                  AND l.first_submitted_at > now() - make_interval(days => $13::int) AS lead
         ) AS credit
       ON CONFLICT (one_click_source_id, plan_id) WHERE one_click_source_id IS NOT NULL DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        order.planId,
        order.kind,
        order.amountCents,
        order.currency,
        order.email,
        order.emailNormalized,
        order.name,
        order.source,
        order.referral,
        order.invitationTokenHash,
        JSON.stringify(order.requestAttribution),
        order.provider,
        order.leadCreditDays,
        order.buyerKeyHash,
        order.livemode,
        order.instalments,
        order.couponId ?? null,
        order.couponCode ?? null,
        order.oneClickSourceId ?? null,
      ],
    );
    if (row || !order.oneClickSourceId) return row;
    // The same one-click purchase asked again (a double click, a reload): the order made the first time.
    const [existing]: OrderRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM orders WHERE one_click_source_id = $1 AND plan_id = $2`,
      [order.oneClickSourceId, order.planId],
    );
    return existing;
  }

  /**
   * The browser's most recent order paid within `withinMs` (by the hash of its buyer key), with a
   * customer at this provider: the order whose saved card a one-click purchase may reuse.
   */
  async findRecentPaidForBuyer(buyerKeyHash: string, provider: PaymentProviderName, withinMs: number): Promise<OrderRow | null> {
    const [row]: OrderRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM orders
        WHERE buyer_key_hash = $1 AND provider = $2 AND customer_id IS NOT NULL
          AND paid_at > now() - make_interval(secs => $3::double precision / 1000)
        ORDER BY paid_at DESC LIMIT 1`,
      [buyerKeyHash, provider, withinMs],
    );
    return row ?? null;
  }

  async setProviderIds(orderId: string, ids: ProviderIds): Promise<void> {
    const entries = Object.entries(ids).filter(([column, value]) => ID_COLUMNS.has(column) && value !== undefined);
    if (entries.length === 0) return;
    const sets = entries.map(([column], i) => `${column} = $${i + 2}`).join(', ');
    await this.dataSource.query(`UPDATE orders SET ${sets}, updated_at = now() WHERE id = $1`, [orderId, ...entries.map(([, v]) => v)]);
  }

  async findBy(column: OrderIdColumn, id: string): Promise<OrderRow | null> {
    const [row]: OrderRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM orders WHERE ${column} = $1`, [id]);
    return row ?? null;
  }

  async findById(orderId: string): Promise<OrderRow | null> {
    const [row]: OrderRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM orders WHERE id = $1`, [orderId]);
    return row ?? null;
  }

  /**
   * Whether the address already holds a running membership of the plan (active, or past due
   * while the provider retries its card).
   */
  async hasRunningMembership(emailNormalized: string, planId: PlanId): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM orders WHERE email_normalized = $1 AND plan_id = $2 AND status IN ('active', 'past_due') LIMIT 1`,
      [emailNormalized, planId],
    );
    return rows.length > 0;
  }

  /**
   * Claims the buyer's one membership of the order's plan for this order, just before its
   * subscription is created: 'member' when another order of the address and plan holds a running
   * membership, 'under-way' when another holds a live claim (its subscription is being created,
   * or its first payment waits for the bank), else 'claimed'. The per-buyer lock makes two tabs'
   * claims take turns, so the second sees the first's; it is held for this short transaction
   * only, never across the provider's call.
   */
  async claimMembership(order: Pick<OrderRow, 'id' | 'email_normalized' | 'plan_id'>): Promise<MembershipClaim> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `membership:${order.plan_id}:${order.email_normalized}`,
      ]);
      const [other]: Array<{ running: boolean }> = await manager.query(
        `SELECT status IN ('active', 'past_due') AS running FROM orders
          WHERE email_normalized = $1 AND plan_id = $2 AND id <> $3
            AND (status IN ('active', 'past_due')
                 OR (membership_claimed_at > now() - make_interval(mins => $4) AND status <> 'canceled'))
          ORDER BY running DESC LIMIT 1`,
        [order.email_normalized, order.plan_id, order.id, MEMBERSHIP_CLAIM_MINUTES],
      );
      if (other) return other.running ? 'member' : 'under-way';
      await manager.query(`UPDATE orders SET membership_claimed_at = now() WHERE id = $1`, [order.id]);
      return 'claimed';
    });
  }

  /** Gives the claim up: the order's subscription was not created, or its first payment failed. */
  async releaseMembershipClaim(orderId: string): Promise<void> {
    await this.dataSource.query(`UPDATE orders SET membership_claimed_at = NULL WHERE id = $1`, [orderId]);
  }

  /**
   * The order that holds this provider object's id; else the order `orderRef` names (the
   * object's metadata), if it holds no object of this kind yet. One statement, so one snapshot:
   * an event racing the transaction that stores the id finds the order by one branch or the other.
   */
  async findIdFor({ column, objectId, orderRef }: OrderLookup): Promise<string | null> {
    const [row]: Array<Pick<OrderRow, 'id'>> = await this.dataSource.query(orderIdOf(column), [objectId, orderRef ?? null]);
    return row?.id ?? null;
  }

  /** Stores a provider object's id on an order that has none of its kind, in the caller's transaction. */
  async setIdIfMissing(sql: SqlExecutor, orderId: string, column: OrderIdColumn, objectId: string): Promise<void> {
    await sql.query(`UPDATE orders SET ${column} = $2 WHERE id = $1 AND ${column} IS NULL`, [orderId, objectId]);
  }

  /**
   * Keeps the schedule an instalment plan's later charges were scheduled on (and its
   * subscription, when it exists) and reads, in the same statement, whether the plan was stopped
   * or its access revoked: a stop committed before finds the schedule's id, one committed after
   * is read here, so no schedule is left running.
   */
  async keepInstalmentSchedule(
    orderId: string,
    scheduleId: string,
    subscriptionId: string | null,
  ): Promise<Pick<OrderRow, 'id' | 'instalment_schedule_id' | 'subscription_id' | 'access_revoked_at' | 'instalments_stopped_at'>> {
    const [[row]]: [
      Array<Pick<OrderRow, 'id' | 'instalment_schedule_id' | 'subscription_id' | 'access_revoked_at' | 'instalments_stopped_at'>>,
      number,
    ] = await this.dataSource.query(
      `UPDATE orders SET instalment_schedule_id = COALESCE(instalment_schedule_id, $2), subscription_id = COALESCE(subscription_id, $3)
          WHERE id = $1
          RETURNING id, instalment_schedule_id, subscription_id, access_revoked_at, instalments_stopped_at`,
      [orderId, scheduleId, subscriptionId],
    );
    return row;
  }

  /**
   * The admin's stop of an instalment plan, in one transaction holding the order's lock: marks it
   * stopped, writes the audit entry (`audit`) and owes `stop-instalments`, which cancels its
   * schedule. A plan stopped already is answered as it is: a double click stops and audits once.
   */
  async stopInstalments(orderId: string, audit: (manager: EntityManager) => Promise<void>): Promise<InstalmentStop> {
    return this.dataSource.transaction(async (manager) => {
      const [order]: Array<Pick<OrderRow, 'instalments' | 'paid_at' | 'access_revoked_at' | 'instalments_stopped_at'> & { paid: number }> =
        await manager.query(
          `SELECT instalments, paid_at, access_revoked_at, instalments_stopped_at,
                  (SELECT count(*)::int FROM payments p WHERE p.order_id = o.id) AS paid
             FROM orders o WHERE o.id = $1 FOR UPDATE OF o`,
          [orderId],
        );
      if (!order) return { refused: 'not found' };
      if (order.instalments_stopped_at) return { stoppedAt: order.instalments_stopped_at };
      if (!order.instalments) return { refused: 'not an instalment plan' };
      if (!order.paid_at) return { refused: 'not paid' };
      if (order.access_revoked_at) return { refused: 'access revoked' };
      if (order.paid >= order.instalments) return { refused: 'paid in full' };
      const [[stopped]]: [Array<Pick<OrderRow, 'instalments_stopped_at'>>, number] = await manager.query(
        `UPDATE orders SET instalments_stopped_at = now(), updated_at = now() WHERE id = $1 RETURNING instalments_stopped_at`,
        [orderId],
      );
      await audit(manager);
      await owe(manager, [{ name: JOBS.stopInstalments, data: { orderId } }]);
      return { stoppedAt: stopped.instalments_stopped_at as Date };
    });
  }

  async findPayment(paymentId: string): Promise<PaymentRow | null> {
    const [row]: PaymentRow[] = await this.dataSource.query(`SELECT * FROM payments WHERE id = $1`, [paymentId]);
    return row ?? null;
  }

  /** The address's paid orders (newest first), each with its payments: the buyer's memberships. */
  membershipsOf(emailNormalized: string): Promise<MembershipRow[]> {
    return this.dataSource.query<MembershipRow[]>(
      `SELECT o.id, o.plan_id, o.kind, o.status, o.provider, o.customer_id, o.subscription_id, o.cancel_at_period_end,
              o.current_period_end, o.paid_at,
              COALESCE((SELECT json_agg(json_build_object('sequence', p.sequence, 'amount_cents', p.amount_cents,
                                                          'currency', p.currency, 'paid_at', p.paid_at) ORDER BY p.sequence)
                          FROM payments p WHERE p.order_id = o.id), '[]') AS payments
         FROM orders o WHERE o.email_normalized = $1 AND o.paid_at IS NOT NULL ORDER BY o.paid_at DESC, o.id`,
      [emailNormalized],
    );
  }

  /** Whether the address has placed any order (paid or not): who may be sent an account sign-in link. */
  async hasOrders(emailNormalized: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM orders WHERE email_normalized = $1 LIMIT 1`, [emailNormalized]);
    return rows.length > 0;
  }

  /** The paid order of this id placed under the address, or null (someone else's order is nobody's business). */
  async findPaidOf(orderId: string, emailNormalized: string): Promise<OrderRow | null> {
    const [row]: OrderRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM orders WHERE id = $1 AND email_normalized = $2 AND paid_at IS NOT NULL`,
      [orderId, emailNormalized],
    );
    return row ?? null;
  }

  /**
   * Records the provider's word on a subscription's end (the account page's change, or a
   * `customer.subscription.updated` webhook from a change made in the provider's billing portal).
   */
  /** In the caller's transaction, which the buyer's membership moves with (a cancellation makes it canceling). */
  async setSubscriptionTerms(manager: SqlExecutor, orderId: string, terms: SubscriptionTermsUpdate): Promise<void> {
    const [before]: Array<Pick<OrderRow, 'cancel_at_period_end' | 'status'>> = await manager.query(
      `SELECT cancel_at_period_end, status FROM orders WHERE id = $1 FOR UPDATE`,
      [orderId],
    );
    const result: unknown = await manager.query(
      `UPDATE orders SET cancel_at_period_end = $2, current_period_end = $3, updated_at = now()
        WHERE id = $1 AND (cancel_at_period_end, current_period_end) IS DISTINCT FROM ($2, $3::timestamptz)`,
      [orderId, terms.cancelAtPeriodEnd, terms.currentPeriodEnd],
    );
    if (affectedRows(result) !== 1) return;
    await syncMembership(manager, orderId);
    // Newly set to end with its period: the buyer is told when (the e-mail's key holds the date).
    if (terms.cancelAtPeriodEnd && !before?.cancel_at_period_end && terms.currentPeriodEnd && before?.status !== 'canceled') {
      await owe(manager, [{ name: JOBS.membershipCanceled, data: { orderId, endsAt: terms.currentPeriodEnd.toISOString() } }]);
    }
  }

  /** An order's payments, first first. */
  paymentsOf(orderId: string): Promise<PaymentRow[]> {
    return this.dataSource.query<PaymentRow[]>(`SELECT * FROM payments WHERE order_id = $1 ORDER BY sequence`, [orderId]);
  }

  /** Records what became of a later payment's side effects (kind → status), in one statement. */
  async recordPaymentEffects(paymentId: string, effects: Readonly<Record<string, string>>): Promise<void> {
    await this.dataSource.query(`UPDATE payments SET paid_effects = paid_effects || $2::jsonb WHERE id = $1`, [
      paymentId,
      JSON.stringify(effects),
    ]);
  }

  /** Adds what became of each order's paid effects to its `paid_effects`, for many orders in one statement (one entry per order). */
  async recordPaidEffects(updates: ReadonlyArray<{ orderId: string; effects: Readonly<Record<string, string>> }>): Promise<void> {
    await this.dataSource.query(
      `UPDATE orders o SET paid_effects = o.paid_effects || u.effects
         FROM unnest($1::uuid[], $2::jsonb[]) AS u(id, effects) WHERE o.id = u.id`,
      [updates.map((u) => u.orderId), updates.map((u) => JSON.stringify(u.effects))],
    );
  }

  /**
   * Claims the right to read the provider for this order now: true for one caller per
   * `intervalMs`, across every API instance (the row is the lock).
   */
  async claimRefresh(orderId: string, intervalMs: number): Promise<boolean> {
    return (await claimRead(this.dataSource.manager, orderId, intervalMs)) !== null;
  }

  /**
   * A subscription the provider just created for the order, in one transaction under the order's
   * row lock: stores its ids, its state when the order holds none yet (the provider's first word;
   * its events, applied under the same lock, store any later one), and applies `learned`.
   * Resolves with the order's status afterwards (null: no such order).
   */
  async applySubscription(
    orderId: string,
    ids: Required<Pick<ProviderIds, 'subscription_id' | 'customer_id'>> & Pick<ProviderIds, 'payment_method_id'>,
    state: string | null,
    learned: OrderStatus | null,
  ): Promise<OrderStatus | null> {
    return this.dataSource.transaction(async (manager) => {
      const order = await lockOrder(manager, orderId);
      if (!order) return null;
      await manager.query(
        `UPDATE orders SET subscription_id = $2, customer_id = $3, payment_method_id = COALESCE($4, payment_method_id),
                subscription_state = COALESCE(subscription_state, $5), updated_at = now()
          WHERE id = $1`,
        [orderId, ids.subscription_id, ids.customer_id, ids.payment_method_id ?? null, state],
      );
      order.subscription_id = ids.subscription_id;
      order.subscription_state ??= state;
      return learned ? applyToLocked(manager, order, learned) : order.status;
    });
  }

  async applyStatus(orderId: string, learned: OrderStatus): Promise<OrderStatus | null> {
    return this.dataSource.transaction((manager) => applyOrderStatus(manager, orderId, learned));
  }

  /**
   * Lock, then read, then write: takes the order's row lock, runs `read` (a provider read) while
   * holding it, and applies what it learned before the lock is released. Two readers of one
   * order take turns, so a slower read that started earlier (and may be staler) can never commit
   * after a later one. A read that throws rolls back and changes nothing. Resolves with the
   * order's status afterwards: what the read moved it to, else the status the lock read (null: no
   * such order), so that the caller need not read the row again.
   */
  async applyRead(orderId: string, read: () => Promise<OrderStatus | null>): Promise<OrderStatus | null> {
    return this.dataSource.transaction(async (manager) => {
      const { status, order } = await applyReadToOrder(manager, orderId, read);
      return status ?? order?.status ?? null;
    });
  }

  /**
   * `applyRead` under the read stamp's claim, both in one transaction: the claim (at most one
   * provider read per order per `intervalMs`, across API instances) takes the row lock, the read
   * runs under it and its answer is applied before the lock goes. A read that fails, or a
   * transaction that gets no connection, leaves no claim behind: the next poll may read at once
   * rather than answer from a row the failed read never brought up to date. Resolves with the
   * order's status after the read, or null when someone else read it within `intervalMs`.
   */
  async applyClaimedRead(orderId: string, intervalMs: number, read: () => Promise<OrderStatus | null>): Promise<OrderStatus | null> {
    return this.dataSource.transaction(async (manager) => {
      const order = await claimRead(manager, orderId, intervalMs);
      if (!order) return null;
      return (await applyReadToLocked(manager, order, read)) ?? order.status;
    });
  }

  /**
   * Claims up to `limit` orders for the reconciler to re-read from the provider: not settled
   * `olderThanMs` after they were created (within the last `withinMs`), holding a provider
   * object, and not read by anyone (reconciler or verification) in the last `claimMs`. The claim
   * is the read stamp itself, so concurrent reconcilers (SKIP LOCKED) take disjoint orders and an
   * order is read at most once per `claimMs`.
   */
  claimUnsettled(
    olderThanMs: number,
    withinMs: number,
    claimMs: number,
    limit: number,
  ): Promise<Array<Pick<OrderRow, 'id' | 'kind' | 'payment_intent_id' | 'setup_intent_id' | 'subscription_id'>>> {
    return this.dataSource
      .query<[Array<Pick<OrderRow, 'id' | 'kind' | 'payment_intent_id' | 'setup_intent_id' | 'subscription_id'>>, number]>(
        `UPDATE orders o SET last_refreshed_at = now()
          WHERE o.id IN (
            SELECT id FROM orders
             WHERE created_at < now() - make_interval(secs => $1::float8 / 1000)
               AND created_at > now() - make_interval(secs => $2::float8 / 1000)
               AND NOT (status = ANY(CASE kind WHEN 'subscription' THEN $4::text[] ELSE $5::text[] END))
               AND (payment_intent_id IS NOT NULL OR setup_intent_id IS NOT NULL OR subscription_id IS NOT NULL)
               AND (last_refreshed_at IS NULL OR last_refreshed_at < now() - make_interval(secs => $3::float8 / 1000))
             ORDER BY last_refreshed_at NULLS FIRST, created_at
             LIMIT $6
             FOR UPDATE SKIP LOCKED)
         RETURNING o.id, o.kind, o.payment_intent_id, o.setup_intent_id, o.subscription_id`,
        [olderThanMs, withinMs, claimMs, SETTLED_STATUSES.subscription, SETTLED_STATUSES['one-time'], limit],
      )
      .then(([rows]) => rows);
  }

  /**
   * Owes `order-paid` again for paid orders (paid `olderThanMs` ago, within the last `withinMs`)
   * with a paid effect of `kinds` missing from the side_effects ledger (never finished, and not
   * skipped on purpose) while no `order-paid` job of theirs is open or waiting for an admin's
   * retry. The job calls only what is missing: finished keys replay from the ledger. Each order is
   * decided and owed under its row lock, so two reconcilers never owe it twice. Resolves with the
   * ids of the orders owed now.
   */
  async reowePaidEffects(kinds: readonly string[], olderThanMs: number, withinMs: number, limit: number): Promise<string[]> {
    const params = [kinds, olderThanMs, withinMs, JOBS.orderPaid];
    const candidates: Array<Pick<OrderRow, 'id'>> = await this.dataSource.query(
      `SELECT o.id FROM orders o WHERE ${MISSING_PAID_EFFECTS} ORDER BY o.paid_at LIMIT $5`,
      [...params, limit],
    );
    const owed: string[] = [];
    for (const { id } of candidates) {
      const owes = await this.dataSource.transaction(async (manager) => {
        await manager.query(`SELECT 1 FROM orders WHERE id = $1 FOR UPDATE`, [id]);
        // A statement of its own after the lock: it sees what a reconciler that held the lock before committed.
        const still: unknown[] = await manager.query(`SELECT 1 FROM orders o WHERE o.id = $5 AND ${MISSING_PAID_EFFECTS}`, [...params, id]);
        if (still.length === 0) return false;
        await owe(manager, [{ name: JOBS.orderPaid, data: { orderId: id } }]);
        return true;
      });
      if (owes) owed.push(id);
    }
    return owed;
  }

  /** Paid live orders in [from, to), in total, by referral and by plan (one pass); test orders are counted by testPurchases. */
  purchases(from: Date, to: Date): Promise<Array<GroupedRow & { purchases: number; revenue_cents: string }>> {
    return this.dataSource.query<Array<GroupedRow & { purchases: number; revenue_cents: string }>>(
      `SELECT GROUPING(referral) AS g_referral, GROUPING(plan_id) AS g_plan, referral, plan_id,
                count(*)::int AS purchases, COALESCE(sum(amount_cents), 0)::bigint AS revenue_cents
           FROM orders
          WHERE paid_at >= $1 AND paid_at < $2 AND livemode
          GROUP BY GROUPING SETS ((), (referral), (plan_id))`,
      [from, to],
    );
  }

  /** Paid test orders (sandbox, Stripe test mode) in [from, to): kept apart from revenue. */
  async testPurchases(from: Date, to: Date): Promise<{ purchases: number; revenue_cents: string }> {
    const [row]: Array<{ purchases: number; revenue_cents: string }> = await this.dataSource.query(
      `SELECT count(*)::int AS purchases, COALESCE(sum(amount_cents), 0)::bigint AS revenue_cents
         FROM orders WHERE paid_at >= $1 AND paid_at < $2 AND NOT livemode`,
      [from, to],
    );
    return row;
  }

  /** Live buyers of the standard plan in [from, to), and which of them bought one of `upgradePlanIds` (live) before `to`. */
  upgrades(
    from: Date,
    to: Date,
    upgradePlanIds: readonly string[],
  ): Promise<Array<{ standard_buyers: number; upgraded: number; by_plan: Array<{ planId: string; buyers: number }> }>> {
    return this.dataSource.query<Array<{ standard_buyers: number; upgraded: number; by_plan: Array<{ planId: string; buyers: number }> }>>(
      `WITH standard AS (
           SELECT DISTINCT email_normalized FROM orders WHERE plan_id = 'standard' AND paid_at >= $1 AND paid_at < $2 AND livemode
         ), upgrades AS (
           SELECT DISTINCT s.email_normalized, u.plan_id
             FROM standard s JOIN orders u ON u.email_normalized = s.email_normalized
            WHERE u.plan_id = ANY($3) AND u.paid_at < $2 AND u.livemode
         )
         SELECT (SELECT count(*) FROM standard)::int AS standard_buyers,
                (SELECT count(DISTINCT email_normalized) FROM upgrades)::int AS upgraded,
                COALESCE((SELECT json_agg(json_build_object('planId', plan_id, 'buyers', n) ORDER BY plan_id)
                            FROM (SELECT plan_id, count(*)::int AS n FROM upgrades GROUP BY plan_id) p), '[]') AS by_plan`,
      [from, to, upgradePlanIds],
    );
  }

  /** A page of orders whose normalised e-mail is LIKE `pattern`, newest first, each with the total count of matches. */
  search(pattern: string, limit: number, offset: number): Promise<Array<OrderListing & { total: string }>> {
    return this.dataSource.query<Array<OrderListing & { total: string }>>(
      `SELECT ${LISTING_COLUMNS}, count(*) OVER () AS total FROM orders WHERE email_normalized LIKE $1
        ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [pattern, limit, offset],
    );
  }

  /** Up to `limit` orders whose normalised e-mail is LIKE `pattern`, newest first. */
  searchAll(pattern: string, limit: number): Promise<OrderListing[]> {
    return this.dataSource.query<OrderListing[]>(
      `SELECT ${LISTING_COLUMNS} FROM orders WHERE email_normalized LIKE $1 ORDER BY created_at DESC, id LIMIT $2`,
      [pattern, limit],
    );
  }

  async countMatching(pattern: string): Promise<number> {
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM orders WHERE email_normalized LIKE $1`,
      [pattern],
    );
    return total;
  }

  /** Every order placed under the address, oldest first, without the invitation token's hash. */
  async findPerson(person: PersonKey, sql: SqlExecutor, forUpdate: boolean): Promise<PersonFindings> {
    const orders: Array<Omit<OrderRow, 'invitation_token_hash'>> = await sql.query(
      `SELECT ${PERSON_COLUMNS}
         FROM orders WHERE email_normalized = $1 ORDER BY created_at${forUpdate ? ' FOR UPDATE' : ''}`,
      [person.emailNormalized],
    );
    return {
      sections: { orders },
      subjects: orders.map((order) => `order:${String(order.id)}`),
      emails: orders.map((order) => order.email),
      names: orders.map((order) => order.name),
    };
  }

  /**
   * Orders keep their amounts, plan, status and provider ids under one anonymous address per
   * person (so an erased buyer still counts once). The customers their provider holds for the
   * person (name, e-mail, saved cards) are owed a `forget-customer` job each, in the erasure's
   * transaction: deleted there once the erasure commits, and never if it rolls back. Their
   * instalment plans still charging are stopped (`stop-instalments`), likewise.
   */
  async erasePerson(erasure: PersonErasure, sql: SqlExecutor): Promise<Record<string, number>> {
    const customers: Array<Pick<OrderRow, 'provider' | 'customer_id'> & { customer_id: string }> = await sql.query(
      `SELECT DISTINCT provider, customer_id FROM orders
        WHERE email_normalized = $1 AND customer_id IS NOT NULL ORDER BY provider, customer_id`,
      [erasure.emailNormalized],
    );
    // An instalment plan still charging stops with the erasure: no card of a forgotten buyer is
    // charged again. Marked here (so no schedule is made after) and canceled by `stop-instalments`.
    const [plans]: [Array<Pick<OrderRow, 'id'>>, number] = await sql.query(
      `UPDATE orders SET instalments_stopped_at = now()
        WHERE email_normalized = $1 AND instalments IS NOT NULL AND paid_at IS NOT NULL AND instalments_stopped_at IS NULL
        RETURNING id`,
      [erasure.emailNormalized],
    );
    const orders = affectedRows(
      await sql.query(
        `UPDATE orders SET email = $2, email_normalized = $2, name = $3, attribution = '{}', updated_at = now() WHERE email_normalized = $1`,
        [erasure.emailNormalized, erasure.erasedEmail, erasure.erasedName],
      ),
    );
    // Memberships repeat the address their orders decide them by.
    await sql.query(`UPDATE memberships SET email_normalized = $2, updated_at = now() WHERE email_normalized = $1`, [
      erasure.emailNormalized,
      erasure.erasedEmail,
    ]);
    await owe(sql, [
      ...customers.map(
        ({ provider, customer_id }) => ({ name: JOBS.forgetCustomer, data: { provider, customerId: customer_id } }) as const,
      ),
      ...plans.map(({ id }) => ({ name: JOBS.stopInstalments, data: { orderId: id } }) as const),
    ]);
    return { orders };
  }
}

/**
 * An order's row as it stands under its lock in the caller's transaction: what applying a status
 * and the webhook path need of it (its billing columns and the ids of its provider objects).
 */
export type LockedOrder = OrderBilling &
  Pick<OrderRow, 'status' | 'payment_intent_id' | 'setup_intent_id' | 'email_normalized' | 'plan_id'>;

/** What `LockedOrder` holds, as the statements that lock an order read it. */
const LOCKED_COLUMNS = `id, kind, status, paid_at, instalments, subscription_id, subscription_state, access_revoked_at, payment_intent_id,
            setup_intent_id, email_normalized, plan_id`;

/**
 * Locks and reads an order: by id, or as found by a provider object it holds (in the same
 * statement). `applying`: stored payment events the caller's transaction applies, marked applied
 * in that statement too (whether or not there is an order), so they count as applied exactly when
 * the transaction commits.
 */
async function lockOrder(
  manager: EntityManager,
  order: string | OrderLookup,
  applying: readonly string[] = [],
): Promise<LockedOrder | null> {
  const [where, params]: [string, unknown[]] =
    typeof order === 'string'
      ? ['id = $1', [order]]
      : [`id = (SELECT id FROM (${orderIdOf(order.column)}) found)`, [order.objectId, order.orderRef ?? null]];
  const marking = applying.length
    ? `WITH applied AS (
         UPDATE payment_events SET applied_at = now() WHERE id = ANY($${params.length + 1}::text[]) AND applied_at IS NULL
       ) `
    : '';
  const [row]: LockedOrder[] = await manager.query(
    `${marking}SELECT ${LOCKED_COLUMNS} FROM orders WHERE ${where} FOR UPDATE`,
    applying.length ? [...params, applying] : params,
  );
  return row ?? null;
}

/**
 * `applyRead` inside the caller's transaction: takes the order's row lock (held until that
 * transaction ends), runs `read`, and applies what it learned.
 */
export async function applyReadUnderLock(
  manager: EntityManager,
  orderId: string,
  read: () => Promise<OrderStatus | null>,
): Promise<OrderStatus | null> {
  return (await applyReadToOrder(manager, orderId, read)).status;
}

/**
 * Stamps the order as read by the provider now, unless someone did within `intervalMs`, and reads
 * what `LockedOrder` holds, in one statement: the row as the claim left it, or null when someone
 * else has the claim (or there is no such order). In a transaction the stamp's UPDATE also holds
 * the row lock until it ends, which every other locker of the order waits for (and an UPDATE
 * waiting on it sees the stamp once it may go on).
 */
async function claimRead(manager: EntityManager, orderId: string, intervalMs: number): Promise<LockedOrder | null> {
  // TypeORM answers an UPDATE with [rows, affected count].
  const [[row]]: [LockedOrder[], number] = await manager.query(
    `UPDATE orders SET last_refreshed_at = now()
      WHERE id = $1 AND (last_refreshed_at IS NULL OR last_refreshed_at < now() - make_interval(secs => $2::float8 / 1000))
     RETURNING ${LOCKED_COLUMNS}`,
    [orderId, intervalMs],
  );
  return row ?? null;
}

/**
 * Runs `read` on an order locked in the caller's transaction (it is given the row as locked) and
 * applies what it learned: the order's new status, or null when the read learned nothing.
 */
async function applyReadToLocked(
  manager: EntityManager,
  order: LockedOrder,
  read: (locked: LockedOrder) => Promise<OrderStatus | null>,
): Promise<OrderStatus | null> {
  const learned = await read(order);
  return learned ? applyToLocked(manager, order, learned) : null;
}

/**
 * `applyReadUnderLock`, also resolving with the locked row as the application left it (its
 * status and paid_at updated), so that the caller reads it no more: the lock statement reads the
 * row once, and nothing else can change it until the caller's transaction ends. The order is
 * given by id, or found by a provider object it holds in the lock statement itself. `order` is
 * null when there is no such order (nothing is read then). `applying`: the payment events the
 * transaction applies, marked applied by the lock statement.
 */
export async function applyReadToOrder(
  manager: EntityManager,
  orderRef: string | OrderLookup,
  read: (locked: LockedOrder) => Promise<OrderStatus | null>,
  applying: readonly string[] = [],
): Promise<{ status: OrderStatus | null; order: LockedOrder | null }> {
  const order = await lockOrder(manager, orderRef, applying);
  if (!order) return { status: null, order: null };
  // An order found through the object's metadata learns the object's id before anything is
  // applied: its first payment is recorded under that id (an event may overtake the request that
  // stores it, as a subscription's or a one-click charge's events do).
  if (typeof orderRef !== 'string' && order[orderRef.column] === null) {
    await manager.query(`UPDATE orders SET ${orderRef.column} = $2 WHERE id = $1 AND ${orderRef.column} IS NULL`, [
      order.id,
      orderRef.objectId,
    ]);
    order[orderRef.column] = orderRef.objectId;
  }
  return { status: await applyReadToLocked(manager, order, read), order };
}

/**
 * Moves an order to `learned` if its state machine allows it, in the caller's transaction (the
 * row is locked, so a webhook and a verification refresh cannot both act on one old status).
 * The first time an order is paid, the paid side effects are owed in the same transaction, so
 * they happen exactly when the payment is recorded, whichever path learned of it first. Used by
 * the API's verification refresh and by the worker's webhook application alike.
 * Resolves with the order's status afterwards (null: no such order).
 */
export async function applyOrderStatus(manager: EntityManager, orderId: string, learned: OrderStatus): Promise<OrderStatus | null> {
  const order = await lockOrder(manager, orderId);
  return order ? applyToLocked(manager, order, learned) : null;
}

/** `applyOrderStatus` on a row locked and read in the caller's transaction; updates `order` with what it changed. */
async function applyToLocked(manager: EntityManager, order: LockedOrder, learned: OrderStatus): Promise<OrderStatus> {
  const orderId = order.id;
  const next = advance(order.kind, order.status, learned);
  if (next === order.status) return next;
  const firstPaid = isPaid(next) && order.paid_at === null;
  // The first payment is recorded in the same statement: the order's own charge (its charge's
  // id, else its subscription's), from the row as updated. Never under an id of ours: an order
  // paid before it holds either id fails the statement (provider_payment_id is NOT NULL), so the
  // caller retries rather than record a payment no refund or dispute could find.
  const [updated]: Array<Pick<OrderRow, 'paid_at'>> = await manager.query(
    `WITH updated AS (
       UPDATE orders SET status = $2, paid_at = CASE WHEN $3 THEN now() ELSE paid_at END, updated_at = now() WHERE id = $1
       RETURNING id, paid_at, payment_intent_id, subscription_id, amount_cents, currency
     ), first_payment AS (
       INSERT INTO payments (order_id, provider_payment_id, sequence, amount_cents, currency, paid_at)
       SELECT id, COALESCE(payment_intent_id, subscription_id), 1, amount_cents, currency, paid_at FROM updated WHERE $3
       ON CONFLICT DO NOTHING
     )
     SELECT paid_at FROM updated`,
    [orderId, next, firstPaid],
  );
  // Paid again after a failed charge: a later failure starts a new grace (past-due.repository.ts).
  if (next === 'active' && (order.status === 'past_due' || order.status === 'unpaid')) await clearPastDue(manager, orderId);
  order.status = next;
  order.paid_at = updated.paid_at;
  // Owed with the membership's webhook, if access is granted now, in one statement.
  const owed = new OwedJobs();
  if (firstPaid) {
    // An instalment plan's first charge was just paid: its later charges are owed from now on.
    owed.add(
      { name: JOBS.orderPaid, data: { orderId } },
      ...(order.instalments ? [{ name: JOBS.scheduleInstalments, data: { orderId } } as const] : []),
    );
  }
  await syncMembership(manager, orderId, order, owed);
  await owed.flush(manager);
  return next;
}

/**
 * Records a later paid charge of a paid order (a renewal or an instalment) once, in the caller's
 * transaction, which holds the order's row lock: the provider's id is unique, so the same invoice
 * reported twice is recorded and owed once. Its own paid side effects (`payment-paid`) are owed
 * in the same transaction. Resolves with the new payment, or null when it was already recorded
 * or the order is not paid yet (its first payment comes first).
 */
export async function recordLaterPayment(manager: EntityManager, orderId: string, payment: NewPayment): Promise<PaymentRow | null> {
  const [row]: PaymentRow[] = await manager.query(
    `INSERT INTO payments (order_id, provider_payment_id, sequence, amount_cents, currency, paid_at)
     SELECT o.id, $2, (SELECT COALESCE(max(sequence), 0) + 1 FROM payments WHERE order_id = o.id), $3, $4, $5
       FROM orders o WHERE o.id = $1 AND o.paid_at IS NOT NULL
     ON CONFLICT (provider_payment_id) DO NOTHING
     RETURNING *`,
    [orderId, payment.providerPaymentId, payment.amountCents, payment.currency, payment.paidAt],
  );
  if (!row) return null;
  await owe(manager, [{ name: JOBS.paymentPaid, data: { paymentId: row.id } }]);
  // An instalment paid after its schedule's end was heard of (events out of order) restores access.
  await syncMembership(manager, orderId);
  return row;
}

/** What the webhook path needs of an order to record its later payments and its subscription's state. */
export type OrderBilling = Pick<OrderRow, 'id' | 'kind' | 'paid_at' | 'subscription_id' | 'subscription_state' | 'instalments'> & {
  /** Set when a refund or a lost dispute ended the order's access (refund.repository). */
  access_revoked_at: Date | null;
};

/** The order's billing columns, in the caller's transaction (which holds its row lock). */
export async function lockedBilling(manager: EntityManager, orderId: string): Promise<OrderBilling> {
  const [row]: OrderBilling[] = await manager.query(
    `SELECT id, kind, paid_at, subscription_id, subscription_state, instalments, access_revoked_at FROM orders WHERE id = $1 FOR UPDATE`,
    [orderId],
  );
  return row;
}

/**
 * Stores the provider's word on the order's subscription, in the caller's transaction; `order`:
 * the row as read under its lock there, when the caller has it.
 */
export async function setSubscriptionState(
  manager: EntityManager,
  orderId: string,
  state: string,
  order?: Pick<LockedOrder, 'email_normalized' | 'plan_id'>,
): Promise<void> {
  await manager.query(`UPDATE orders SET subscription_state = $2, updated_at = now() WHERE id = $1`, [orderId, state]);
  await syncMembership(manager, orderId, order);
}

/**
 * Notes, in the caller's transaction, that the provider failed to charge this invoice of the
 * order; true the first time only (the buyer is told then, not on each retry).
 */
export async function notePaymentFailure(manager: EntityManager, orderId: string, invoiceId: string): Promise<boolean> {
  const inserted: unknown[] = await manager.query(
    `INSERT INTO payment_failures (provider_invoice_id, order_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING provider_invoice_id`,
    [invoiceId, orderId],
  );
  return inserted.length === 1;
}
