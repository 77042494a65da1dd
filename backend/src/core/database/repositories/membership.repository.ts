import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MembershipStatus, PlanId } from '@contracts/plans';
import type { ProductId } from '@contracts/products';
import type { SqlExecutor, TableColumns } from '../personal-data';

export const MEMBERSHIP_TABLES: readonly TableColumns[] = [
  // Erased with the buyer's orders (OrderRepository.erasePerson), whose address it repeats.
  { table: 'memberships', personal: ['email_normalized'], notPersonal: ['product', 'status'] },
];

/** A `memberships` row: one buyer's access to one product. */
export interface MembershipRow {
  id: string;
  email_normalized: string;
  product: ProductId;
  status: MembershipStatus;
  /** The paid order that decides the status now. */
  order_id: string | null;
  /** How many times access was granted or ended: each change is one membership webhook. */
  access_changes: number;
  granted_at: Date;
  ended_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A membership locked for a change, with its deciding order's `livemode` (null: none). */
export interface LockedMembership extends MembershipRow {
  order_livemode: boolean | null;
}

/** The paid order deciding a membership, the access it gives and whether it moved real money. */
export interface BestAccess {
  id: string;
  access: MembershipStatus;
  livemode: boolean;
}

/** A membership as the admin lists it, with the deciding order's plan and the buyer's name. */
export interface MembershipListing extends MembershipRow {
  email: string | null;
  name: string | null;
  plan_id: string | null;
  /** Whether the deciding order moved real money (orders.livemode); null without one. */
  livemode: boolean | null;
}

/**
 * Where one paid order leaves its buyer's access (null: not paid, it gives none). A refund or a
 * lost dispute, and a membership subscription that ended, end it; a subscription paused in the
 * cancellation flow is paused from the end of its paid period until the pause ends
 * (`access_paused`, applied by OrderLifecycle.pausedAccessDue); one canceled for the period's end is canceling; a failed payment being retried is past due (access kept) until
 * its grace ends (`grace_ended_at`, set by PastDueRepository PAST_DUE_GRACE_DAYS after the first
 * failure); a subscription the provider gave up retrying (unpaid) has ended until a payment makes
 * it active again; an instalment plan whose schedule stopped before its last charge has ended.
 * Everything else paid (one-time plans, instalment plans paid or still paying) is active.
 */
const ORDER_ACCESS = `
  CASE
    WHEN o.paid_at IS NULL THEN NULL
    WHEN o.access_revoked_at IS NOT NULL THEN 'ended'
    WHEN o.kind = 'subscription' THEN
      CASE o.status WHEN 'active' THEN (CASE WHEN o.access_paused THEN 'paused' WHEN o.cancel_at_period_end THEN 'canceling' ELSE 'active' END)
                    WHEN 'past_due' THEN (CASE WHEN o.grace_ended_at IS NULL THEN 'past_due' ELSE 'ended' END)
                    ELSE 'ended' END
    WHEN o.instalments IS NOT NULL AND o.subscription_state = 'past_due' THEN
      (CASE WHEN o.grace_ended_at IS NULL THEN 'past_due' ELSE 'ended' END)
    WHEN o.instalments IS NOT NULL AND o.subscription_state = 'unpaid' THEN 'ended'
    WHEN o.instalments IS NOT NULL AND o.subscription_state = 'canceled'
         AND (SELECT count(*) FROM payments p WHERE p.order_id = o.id) < o.instalments THEN 'ended'
    ELSE 'active'
  END`;

/** Better access first: the membership takes its best order's. */
const ACCESS_RANK = `CASE access WHEN 'active' THEN 0 WHEN 'canceling' THEN 1 WHEN 'past_due' THEN 2 WHEN 'paused' THEN 3 ELSE 4 END`;

/** Whose membership an order decides: its buyer's address and its plan (the product). */
export interface MembershipBuyer {
  email_normalized: string;
  plan_id: string;
}

/** Who may enter which members area: the admin's list and export, and what the membership webhook sends. */
@Injectable()
export class MembershipRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The buyer's membership of the product, locked in the caller's transaction (two orders of one
   * buyer take turns), with whether its deciding order is live.
   */
  async lock(sql: SqlExecutor, emailNormalized: string, product: ProductId): Promise<LockedMembership | null> {
    const [current]: LockedMembership[] = await sql.query(
      `SELECT m.*, o.livemode AS order_livemode FROM memberships m LEFT JOIN orders o ON o.id = m.order_id
        WHERE m.email_normalized = $1 AND m.product = $2 FOR UPDATE OF m`,
      [emailNormalized, product],
    );
    return current ?? null;
  }

  /**
   * The buyer's paid order of `plans` giving the best access (ORDER_ACCESS), that access and
   * whether the order is live; null: none paid. An order that is live and gives access comes
   * first, so a real purchase after a test one makes the membership live.
   */
  async bestAccess(sql: SqlExecutor, emailNormalized: string, plans: readonly PlanId[]): Promise<BestAccess | null> {
    const [best]: BestAccess[] = await sql.query(
      `SELECT id, access, livemode FROM (
         SELECT o.id, o.paid_at, o.livemode, ${ORDER_ACCESS} AS access FROM orders o WHERE o.email_normalized = $1 AND o.plan_id = ANY($2)
       ) decided
       WHERE access IS NOT NULL ORDER BY (livemode AND access <> 'ended') DESC, ${ACCESS_RANK}, paid_at DESC LIMIT 1`,
      [emailNormalized, plans],
    );
    return best ?? null;
  }

  /** The buyer's first membership of the product; null when a concurrent first order inserted it first. */
  async insert(
    sql: SqlExecutor,
    emailNormalized: string,
    product: ProductId,
    status: MembershipStatus,
    orderId: string,
  ): Promise<MembershipRow | null> {
    const [inserted]: MembershipRow[] = await sql.query(
      `INSERT INTO memberships (email_normalized, product, status, order_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (email_normalized, product) DO NOTHING RETURNING *`,
      [emailNormalized, product, status, orderId],
    );
    return inserted ?? null;
  }

  /** Moves a membership to `status`, decided by `orderId`; `granted`/`ended`: access changes now (one more access change). */
  async update(
    sql: SqlExecutor,
    id: string,
    status: MembershipStatus,
    orderId: string,
    granted: boolean,
    ended: boolean,
  ): Promise<MembershipRow> {
    // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
    const [[updated]]: [MembershipRow[], number] = await sql.query(
      `UPDATE memberships
          SET status = $2, order_id = $3, updated_at = now(),
              access_changes = access_changes + CASE WHEN $4 OR $5 THEN 1 ELSE 0 END,
              granted_at = CASE WHEN $4 THEN now() ELSE granted_at END,
              ended_at = CASE WHEN $5 THEN now() WHEN $4 THEN NULL ELSE ended_at END
        WHERE id = $1 RETURNING *`,
      [id, status, orderId, granted, ended],
    );
    return updated;
  }

  /** A membership with its deciding order's address, name and plan (the address as typed at checkout). */
  async findListing(id: string, sql: SqlExecutor = this.dataSource): Promise<MembershipListing | null> {
    const [row]: MembershipListing[] = await sql.query(`${LISTING} WHERE m.id = $1`, [id]);
    return row ?? null;
  }

  /** Newest change first; `pattern` matches part of the normalised e-mail, `status` narrows it. */
  search(pattern: string, status: MembershipStatus | undefined, limit: number, offset: number): Promise<MembershipListing[]> {
    return this.dataSource.query(
      `${LISTING} WHERE m.email_normalized LIKE $1 AND ($2::text IS NULL OR m.status = $2) ORDER BY m.updated_at DESC, m.id LIMIT $3 OFFSET $4`,
      [pattern, status ?? null, limit, offset],
    );
  }

  async count(pattern: string, status: MembershipStatus | undefined): Promise<number> {
    const [row]: Array<{ n: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM memberships m WHERE m.email_normalized LIKE $1 AND ($2::text IS NULL OR m.status = $2)`,
      [pattern, status ?? null],
    );
    return row.n;
  }
}

const LISTING = `SELECT m.*, o.email, o.name, o.plan_id, o.livemode FROM memberships m LEFT JOIN orders o ON o.id = m.order_id`;
