import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PaymentProviderName } from '@contracts/payments';
import type { PlanId } from '@contracts/plans';
import type { PersonalDataOwner, PersonErasure, PersonFindings, PersonKey, SqlExecutor, TableColumns } from '../personal-data';
import {
  MEMBERSHIP_CLAIM_MINUTES,
  type MembershipClaim,
  type MembershipRow,
  type NewOrder,
  type OrderIdColumn,
  orderIdOf,
  type OrderLookup,
  type OrderRow,
  type ProviderIds,
  type RunningMembership,
} from './order-rows';
import { PAYMENT_TABLES } from './payment.repository';
import { affectedRows } from './sql-results';

export { MEMBERSHIP_CLAIM_MINUTES } from './order-rows';
export type {
  InstalmentStop,
  MembershipClaim,
  MembershipRow,
  NewOrder,
  OrderIdColumn,
  OrderLookup,
  OrderRow,
  ProviderIds,
  RunningMembership,
} from './order-rows';

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
      'bump_plan_id',
    ],
  },
  ...PAYMENT_TABLES,
];

const COLUMNS = `id, plan_id, kind, amount_cents, currency, email, email_normalized, name, source, referral, invitation_token_hash,
  lead_id, attribution, provider, setup_intent_id, payment_intent_id, customer_id, subscription_id, payment_method_id, status,
  purchase_event_id, paid_at, paid_effects, last_refreshed_at, buyer_key_hash, livemode, instalments, subscription_state,
  instalment_schedule_id, instalments_stopped_at, access_revoked_at, cancel_at_period_end, current_period_end, paused_until, one_click_source_id,
  coupon_id, coupon_code, bump_plan_id, bump_amount_cents, created_at, updated_at`;

/** A person's export: every column but the invitation token's hash. */
const PERSON_COLUMNS = `id, plan_id, kind, amount_cents, currency, email, email_normalized, name, source, referral, lead_id, attribution,
  provider, setup_intent_id, payment_intent_id, customer_id, subscription_id, payment_method_id, status, purchase_event_id, paid_at,
  paid_effects, last_refreshed_at, instalments, subscription_state, created_at, updated_at`;

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
                           coupon_id, coupon_code, one_click_source_id, bump_plan_id, bump_amount_cents, customer_id)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9, CASE WHEN credit.lead THEN l.referral END), $10, l.id,
              CASE WHEN credit.lead THEN COALESCE(l.attribution, '{}'::jsonb) ELSE COALESCE(l.attribution, '{}'::jsonb) - 'tid' END
                || $11::jsonb,
              $12, $14, $15, $16, $17, $18, $19, $20, $21,
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
        order.bumpPlanId ?? null,
        order.bumpAmountCents ?? null,
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
   * The status of the address's running membership of the plan, if it holds one: active, past
   * due while the provider retries its card, or unpaid (the provider gave up: access ended, but the
   * subscription still exists and a new card on /account revives it, so a second one is not sold).
   */
  async runningMembershipOf(emailNormalized: string, planId: PlanId): Promise<RunningMembership | null> {
    const [row]: Array<{ status: RunningMembership }> = await this.dataSource.query(
      `SELECT status FROM orders WHERE email_normalized = $1 AND plan_id = $2 AND status IN ('active', 'past_due', 'unpaid')
        ORDER BY status = 'unpaid', paid_at DESC LIMIT 1`,
      [emailNormalized, planId],
    );
    return row?.status ?? null;
  }

  /**
   * Claims the buyer's one membership of the order's plan for this order, just before its
   * subscription is created: 'member' (or 'member-unpaid') when another order of the address and
   * plan holds a running membership (runningMembershipOf), 'awaiting-bank' when another's first
   * payment waits for the bank (its subscription incomplete: the claim lives until the provider
   * settles it, however long the bank takes), 'under-way' when another's subscription is being
   * created (a claim that lapses after MEMBERSHIP_CLAIM_MINUTES, should its answer never come),
   * else 'claimed'. The per-buyer lock makes two tabs' claims take turns, so the second sees the
   * first's; it is held for this short transaction only, never across the provider's call.
   */
  async claimMembership(order: Pick<OrderRow, 'id' | 'email_normalized' | 'plan_id'>): Promise<MembershipClaim> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `membership:${order.plan_id}:${order.email_normalized}`,
      ]);
      const [other]: Array<{ claim: MembershipClaim }> = await manager.query(
        `SELECT CASE WHEN status = 'unpaid' THEN 'member-unpaid' WHEN status IN ('active', 'past_due') THEN 'member'
                     WHEN status = 'incomplete' THEN 'awaiting-bank' ELSE 'under-way' END AS claim
           FROM orders
          WHERE email_normalized = $1 AND plan_id = $2 AND id <> $3
            AND (status IN ('active', 'past_due', 'unpaid')
                 OR (membership_claimed_at IS NOT NULL AND status = 'incomplete')
                 OR (membership_claimed_at > now() - make_interval(mins => $4) AND status <> 'canceled'))
          ORDER BY status IN ('active', 'past_due') DESC, status = 'unpaid' DESC, status = 'incomplete' DESC LIMIT 1`,
        [order.email_normalized, order.plan_id, order.id, MEMBERSHIP_CLAIM_MINUTES],
      );
      if (other) return other.claim;
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

  /** The address's paid orders (newest first), each with its payments: the buyer's memberships. */
  membershipsOf(emailNormalized: string): Promise<MembershipRow[]> {
    return this.dataSource.query<MembershipRow[]>(
      `SELECT o.id, o.plan_id, o.kind, o.status, o.provider, o.customer_id, o.subscription_id, o.cancel_at_period_end,
              o.current_period_end, o.paid_at, o.paused_until,
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

  /** Adds what became of each order's paid effects to its `paid_effects`, for many orders in one statement (one entry per order). */
  async recordPaidEffects(updates: ReadonlyArray<{ orderId: string; effects: Readonly<Record<string, string>> }>): Promise<void> {
    await this.dataSource.query(
      `UPDATE orders o SET paid_effects = o.paid_effects || u.effects
         FROM unnest($1::uuid[], $2::jsonb[]) AS u(id, effects) WHERE o.id = u.id`,
      [updates.map((u) => u.orderId), updates.map((u) => JSON.stringify(u.effects))],
    );
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
   * person (so an erased buyer still counts once). What the erasure owes the provider (its
   * customers forgotten, its instalment plans stopped) the lifecycle decided before, in the same
   * transaction (OrderLifecycle.personErasing).
   */
  async erasePerson(erasure: PersonErasure, sql: SqlExecutor): Promise<Record<string, number>> {
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
    return { orders };
  }
}
