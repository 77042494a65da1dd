import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EmailSearch } from './email-search';
import type { GroupedRow } from './grouped-row';
import type { OrderRow } from './order-rows';

/** The columns the admin lists and exports of an order. */
export type OrderListing = Pick<
  OrderRow,
  'id' | 'email' | 'name' | 'plan_id' | 'amount_cents' | 'currency' | 'status' | 'source' | 'referral' | 'created_at' | 'paid_at'
>;

/** Paid orders of a group: how many, what they took, and how many were offered the add-on (order bump) and took it. */
export interface PurchaseFigures {
  purchases: number;
  revenue_cents: string;
  bump_offered: number;
  bump_taken: number;
}

/** What the admin's dashboard and records read of orders: sales figures, and orders found by address. */
@Injectable()
export class OrderReportRepository {
  /** The admin's orders list: newest first. */
  readonly byEmail: EmailSearch<OrderListing>;

  constructor(private readonly dataSource: DataSource) {
    this.byEmail = new EmailSearch(dataSource, {
      table: 'orders',
      columns: 'id, email, name, plan_id, amount_cents, currency, status, source, referral, created_at, paid_at',
      newestFirst: 'created_at DESC, id',
    });
  }

  /** Paid live orders in [from, to), in total, by referral and by plan (one pass); test orders are counted by testPurchases. */
  purchases(from: Date, to: Date): Promise<Array<GroupedRow & PurchaseFigures>> {
    return this.dataSource.query<Array<GroupedRow & PurchaseFigures>>(
      `SELECT GROUPING(referral) AS g_referral, GROUPING(plan_id) AS g_plan, referral, plan_id,
                count(*)::int AS purchases, COALESCE(sum(amount_cents), 0)::bigint AS revenue_cents,
                count(*) FILTER (WHERE bump_plan_id IS NOT NULL)::int AS bump_offered,
                count(*) FILTER (WHERE bump_amount_cents IS NOT NULL)::int AS bump_taken
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

  /** Live buyers of the base plan in [from, to), and which of them bought one of `upgradePlanIds` (live) before `to`. */
  upgrades(
    from: Date,
    to: Date,
    basePlanId: string,
    upgradePlanIds: readonly string[],
  ): Promise<Array<{ standard_buyers: number; upgraded: number; by_plan: Array<{ planId: string; buyers: number }> }>> {
    return this.dataSource.query<Array<{ standard_buyers: number; upgraded: number; by_plan: Array<{ planId: string; buyers: number }> }>>(
      `WITH standard AS (
           SELECT DISTINCT email_normalized FROM orders WHERE plan_id = $4 AND paid_at >= $1 AND paid_at < $2 AND livemode
         ), upgrades AS (
           SELECT DISTINCT s.email_normalized, u.plan_id
             FROM standard s JOIN orders u ON u.email_normalized = s.email_normalized
            WHERE u.plan_id = ANY($3) AND u.paid_at < $2 AND u.livemode
         )
         SELECT (SELECT count(*) FROM standard)::int AS standard_buyers,
                (SELECT count(DISTINCT email_normalized) FROM upgrades)::int AS upgraded,
                COALESCE((SELECT json_agg(json_build_object('planId', plan_id, 'buyers', n) ORDER BY plan_id)
                            FROM (SELECT plan_id, count(*)::int AS n FROM upgrades GROUP BY plan_id) p), '[]') AS by_plan`,
      [from, to, upgradePlanIds, basePlanId],
    );
  }
}
