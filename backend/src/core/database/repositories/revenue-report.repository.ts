import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Which orders and months a revenue report reads. */
export interface RevenueScope {
  /** Live orders (real money) or test orders (the sandbox, Stripe test mode): never both. */
  livemode: boolean;
  /** The site's currency, upper case: payments and refunds in another are left out. */
  currency: string;
  /** Plans billed once a year: a payment of one pays for twelve months. */
  yearlyPlanIds: readonly string[];
  /** First day (UTC) of the first and of the last month of the range. */
  fromMonth: string;
  toMonth: string;
}

export interface MonthMovesRow {
  month: string;
  mrr: string;
  paying: number;
  new_cents: string;
  new_members: number;
  expansion_cents: string;
  contraction_cents: string;
  churned_cents: string;
  churned_voluntary: number;
  churned_involuntary: number;
  reactivated_cents: string;
  reactivated_members: number;
  /** Members on pause in the month (not paying, not churned). */
  on_pause: number;
  /** MRR that left with the members whose pause began in the month, and came back with those who paid again after one. */
  paused_cents: string;
  paused_members: number;
  resumed_cents: string;
  resumed_members: number;
}

export interface MonthEventsRow {
  month: string;
  refunds: number;
  refunded_cents: string;
  disputes: number;
  disputes_lost: number;
  disputed_cents: string;
  failed: number;
  recovered: number;
}

export interface CohortCellRow {
  cohort: string;
  age: number;
  members: number;
}

export interface PlanMembersRow {
  plan_id: string;
  active: number;
  canceling: number;
  past_due: number;
}

export interface PlanValueRow {
  plan_id: string;
  buyers: number;
  net_cents: string;
  /** Subscriptions only (else 0): months paid for and paused in the range, what they paid per month, and churn. */
  paying_months: number;
  paused_months: number;
  paid_monthly: string;
  at_risk: number;
  churned: number;
}

/**
 * The subscription months paid for, and paused: `covered` has one row per subscription order and
 * month it paid for (a yearly plan's payment pays for twelve), at that month's share of its
 * largest payment for it; a payment refunded in full pays for nothing. `pauses` has one row per
 * order and month a pause from the cancellation flow covers: the provider voids the renewals
 * falling due in it, monthly from the end of the months paid for by the last payment before the
 * pause, `pause_months` of them, up to a cancellation asked for before one fell due (the
 * subscription then ends with the period under way). `order_months` holds both, a paused month at
 * nothing; `member_months` adds a member's (normalised e-mail's) subscriptions up per month: a
 * member with a row at 0 is on pause that month. $1 livemode, $2 currency, $3 yearly plan ids.
 */
const COVERED = `
  paid AS (
    SELECT o.email_normalized AS member, o.id AS order_id, o.plan_id, p.amount_cents, p.paid_at,
           date_trunc('month', p.paid_at AT TIME ZONE 'UTC') AS first_month,
           CASE WHEN o.plan_id = ANY($3::text[]) THEN 12 ELSE 1 END AS months
      FROM payments p JOIN orders o ON o.id = p.order_id
     WHERE o.kind = 'subscription' AND o.livemode = $1 AND upper(p.currency) = $2
       AND p.amount_cents > (SELECT COALESCE(sum(r.amount_cents), 0) FROM refunds r WHERE r.payment_id = p.id AND r.status = 'succeeded')
  ), covered AS (
    SELECT member, order_id, plan_id, m.month::date AS month, max(amount_cents::numeric / months) AS monthly
      FROM paid CROSS JOIN LATERAL generate_series(first_month, first_month + (months - 1) * interval '1 month', interval '1 month') AS m(month)
     GROUP BY member, order_id, plan_id, m.month
  ), voided AS (
    SELECT last.member, f.order_id, last.plan_id, f.created_at AS paused_at,
           last.paid_at + (last.months + k) * interval '1 month' AS due
      FROM cancellation_feedback f
     CROSS JOIN LATERAL (SELECT pa.member, pa.plan_id, pa.paid_at, pa.months FROM paid pa
                          WHERE pa.order_id = f.order_id AND pa.paid_at <= f.created_at ORDER BY pa.paid_at DESC LIMIT 1) last
     CROSS JOIN LATERAL generate_series(0, f.pause_months - 1) AS s(k)
     WHERE f.outcome = 'paused'
  ), pauses AS (
    SELECT DISTINCT v.member, v.order_id, v.plan_id, date_trunc('month', v.due AT TIME ZONE 'UTC')::date AS month
      FROM voided v
     WHERE NOT EXISTS (SELECT 1 FROM cancellation_feedback c WHERE c.order_id = v.order_id AND c.outcome = 'canceled'
                          AND c.created_at >= v.paused_at AND c.created_at < v.due)
  ), order_months AS (
    SELECT member, order_id, plan_id, month, monthly, false AS paused FROM covered
    UNION ALL
    SELECT member, order_id, plan_id, month, 0, true FROM pauses p
     WHERE NOT EXISTS (SELECT 1 FROM covered c WHERE c.order_id = p.order_id AND c.month = p.month)
  ), member_months AS (
    SELECT member, month, (month - interval '1 month')::date AS before, sum(monthly) AS mrr FROM order_months GROUP BY member, month
  ), firsts AS (
    SELECT member, min(month) AS first_month FROM covered GROUP BY member
  )`;

/**
 * The revenue dashboard's figures (GET /api/admin/revenue), from payments, refunds, disputes,
 * failed invoices, memberships, orders and the cancellation flow's pauses. Months are UTC calendar months.
 */
@Injectable()
export class RevenueReportRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Per month of the range: MRR, paying members and members on pause, and each member's move from
   * the month before: new (first month ever paid), reactivated (paying again after a gap), paused
   * (paid the month before, on pause now: their MRR leaves, they have not churned), resumed (paying
   * again after a pause), churned (paid or was on pause the month before, neither now: involuntary
   * when a renewal of a subscription that paid for or paused the month before failed after that
   * month began and was never paid, voluntary otherwise; a member leaving a pause takes no MRR with
   * them, it left when they paused), expansion or contraction (paying more or less). Months without
   * a member in them are absent.
   */
  monthMoves(scope: RevenueScope): Promise<MonthMovesRow[]> {
    return this.dataSource.query<MonthMovesRow[]>(
      `WITH ${COVERED}, pairs AS (
         SELECT COALESCE(c.member, p.member) AS member, COALESCE(c.month, (p.month + interval '1 month')::date) AS month,
                COALESCE(c.mrr, 0) AS cur, COALESCE(p.mrr, 0) AS prev,
                COALESCE(c.mrr = 0, false) AS cur_paused, COALESCE(p.mrr = 0, false) AS prev_paused
           FROM member_months c FULL JOIN member_months p ON p.member = c.member AND p.month = c.before
       ), involuntary AS (
         SELECT DISTINCT c.member, (c.month + interval '1 month')::date AS month
           FROM order_months c JOIN payment_failures f ON f.order_id = c.order_id
          WHERE f.created_at >= c.month::timestamp AT TIME ZONE 'UTC'
            AND NOT EXISTS (SELECT 1 FROM order_months n WHERE n.order_id = c.order_id AND n.month = (c.month + interval '1 month')::date)
            AND NOT EXISTS (SELECT 1 FROM payments q WHERE q.provider_payment_id = f.provider_invoice_id)
       ), moves AS (
         SELECT pr.month, pr.cur, pr.prev, pr.cur_paused,
                CASE WHEN pr.cur_paused THEN (CASE WHEN pr.prev > 0 THEN 'paused' END)
                     WHEN pr.cur > 0 AND pr.prev_paused THEN 'resumed'
                     WHEN pr.cur > 0 AND pr.prev = 0 AND pr.month = f.first_month THEN 'new'
                     WHEN pr.cur > 0 AND pr.prev = 0 THEN 'reactivated'
                     WHEN pr.cur = 0 THEN (CASE WHEN i.member IS NULL THEN 'voluntary' ELSE 'involuntary' END)
                     WHEN pr.cur > pr.prev THEN 'expansion'
                     WHEN pr.cur < pr.prev THEN 'contraction' END AS move
           FROM pairs pr JOIN firsts f USING (member) LEFT JOIN involuntary i ON i.member = pr.member AND i.month = pr.month
          WHERE pr.month >= $4::date AND pr.month <= $5::date
       )
       SELECT to_char(month, 'YYYY-MM') AS month,
              round(sum(cur))::bigint AS mrr,
              count(*) FILTER (WHERE cur > 0)::int AS paying,
              count(*) FILTER (WHERE cur_paused)::int AS on_pause,
              round(COALESCE(sum(cur) FILTER (WHERE move = 'new'), 0))::bigint AS new_cents,
              count(*) FILTER (WHERE move = 'new')::int AS new_members,
              round(COALESCE(sum(cur - prev) FILTER (WHERE move = 'expansion'), 0))::bigint AS expansion_cents,
              round(COALESCE(sum(prev - cur) FILTER (WHERE move = 'contraction'), 0))::bigint AS contraction_cents,
              round(COALESCE(sum(prev) FILTER (WHERE move IN ('voluntary', 'involuntary')), 0))::bigint AS churned_cents,
              count(*) FILTER (WHERE move = 'voluntary')::int AS churned_voluntary,
              count(*) FILTER (WHERE move = 'involuntary')::int AS churned_involuntary,
              round(COALESCE(sum(cur) FILTER (WHERE move = 'reactivated'), 0))::bigint AS reactivated_cents,
              count(*) FILTER (WHERE move = 'reactivated')::int AS reactivated_members,
              round(COALESCE(sum(prev) FILTER (WHERE move = 'paused'), 0))::bigint AS paused_cents,
              count(*) FILTER (WHERE move = 'paused')::int AS paused_members,
              round(COALESCE(sum(cur) FILTER (WHERE move = 'resumed'), 0))::bigint AS resumed_cents,
              count(*) FILTER (WHERE move = 'resumed')::int AS resumed_members
         FROM moves GROUP BY month ORDER BY month`,
      [scope.livemode, scope.currency, scope.yearlyPlanIds, scope.fromMonth, scope.toMonth],
    );
  }

  /**
   * Members by the month they first paid in (within the range) and how many were still members
   * `age` months later (paying, or on a pause: a pause is not churn), up to the range's end.
   */
  cohorts(scope: RevenueScope): Promise<CohortCellRow[]> {
    return this.dataSource.query<CohortCellRow[]>(
      `WITH ${COVERED}
       SELECT to_char(f.first_month, 'YYYY-MM') AS cohort,
              ((extract(year FROM m.month) - extract(year FROM f.first_month)) * 12
                + extract(month FROM m.month) - extract(month FROM f.first_month))::int AS age,
              count(*)::int AS members
         FROM member_months m JOIN firsts f USING (member)
        WHERE f.first_month >= $4::date AND f.first_month <= $5::date AND m.month <= $5::date
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [scope.livemode, scope.currency, scope.yearlyPlanIds, scope.fromMonth, scope.toMonth],
    );
  }

  /**
   * Per month of the range: refunds made (not lost disputes: those are counted as disputes),
   * disputes opened and of them lost, renewals that failed and of them paid later (the failed
   * invoice is a payment now). Months without any are absent.
   */
  monthEvents(scope: Pick<RevenueScope, 'livemode' | 'currency' | 'fromMonth' | 'toMonth'>): Promise<MonthEventsRow[]> {
    return this.dataSource.query<MonthEventsRow[]>(
      `WITH events AS (
         SELECT r.created_at AS at, 'refund' AS what, r.amount_cents, false AS flag
           FROM refunds r JOIN orders o ON o.id = r.order_id
          WHERE r.reason = 'refund' AND r.status = 'succeeded' AND o.livemode = $1 AND upper(r.currency) = $2
         UNION ALL
         SELECT d.created_at, 'dispute', d.amount_cents, d.status = 'lost'
           FROM disputes d JOIN orders o ON o.id = d.order_id WHERE o.livemode = $1 AND upper(d.currency) = $2
         UNION ALL
         SELECT f.created_at, 'failure', 0, EXISTS (SELECT 1 FROM payments q WHERE q.provider_payment_id = f.provider_invoice_id)
           FROM payment_failures f JOIN orders o ON o.id = f.order_id WHERE o.livemode = $1
       )
       SELECT to_char(date_trunc('month', at AT TIME ZONE 'UTC'), 'YYYY-MM') AS month,
              count(*) FILTER (WHERE what = 'refund')::int AS refunds,
              COALESCE(sum(amount_cents) FILTER (WHERE what = 'refund'), 0)::bigint AS refunded_cents,
              count(*) FILTER (WHERE what = 'dispute')::int AS disputes,
              count(*) FILTER (WHERE what = 'dispute' AND flag)::int AS disputes_lost,
              COALESCE(sum(amount_cents) FILTER (WHERE what = 'dispute'), 0)::bigint AS disputed_cents,
              count(*) FILTER (WHERE what = 'failure')::int AS failed,
              count(*) FILTER (WHERE what = 'failure' AND flag)::int AS recovered
         FROM events
        WHERE at >= ($3::date)::timestamp AT TIME ZONE 'UTC' AND at < ($4::date + interval '1 month') AT TIME ZONE 'UTC'
        GROUP BY 1 ORDER BY 1`,
      [scope.livemode, scope.currency, scope.fromMonth, scope.toMonth],
    );
  }

  /** Subscriptions active or retrying a failed renewal now (a pause that has begun aside: it pays nothing), each at its last payment per month, and their members. */
  async mrrNow(scope: Pick<RevenueScope, 'livemode' | 'currency' | 'yearlyPlanIds'>): Promise<{ mrr: string; paying: number }> {
    const [row]: Array<{ mrr: string; paying: number }> = await this.dataSource.query(
      `SELECT COALESCE(round(sum(last.amount_cents::numeric / CASE WHEN o.plan_id = ANY($3::text[]) THEN 12 ELSE 1 END)), 0)::bigint AS mrr,
              count(DISTINCT o.email_normalized)::int AS paying
         FROM orders o
        CROSS JOIN LATERAL (SELECT p.amount_cents FROM payments p WHERE p.order_id = o.id ORDER BY p.sequence DESC LIMIT 1) last
        WHERE o.kind = 'subscription' AND o.livemode = $1 AND upper(o.currency) = $2
          AND o.status IN ('active', 'past_due') AND o.access_revoked_at IS NULL AND NOT o.access_paused`,
      [scope.livemode, scope.currency, scope.yearlyPlanIds],
    );
    return row;
  }

  /** Memberships giving access now (active, canceling, past due; not paused or ended), by the plan of the order deciding each. */
  activeByPlan(livemode: boolean): Promise<PlanMembersRow[]> {
    return this.dataSource.query<PlanMembersRow[]>(
      `SELECT o.plan_id,
              count(*) FILTER (WHERE m.status = 'active')::int AS active,
              count(*) FILTER (WHERE m.status = 'canceling')::int AS canceling,
              count(*) FILTER (WHERE m.status = 'past_due')::int AS past_due
         FROM memberships m JOIN orders o ON o.id = m.order_id
        WHERE m.status NOT IN ('ended', 'paused') AND o.livemode = $1
        GROUP BY o.plan_id ORDER BY o.plan_id`,
      [livemode],
    );
  }

  /**
   * Per plan, up to the end of the range: paid orders and what they brought in less refunds; for
   * subscriptions also the months paid for and paused in the range with their monthly amounts, and
   * churn: of the months paid for or paused whose next month is in the range, how many were followed
   * by neither (a pause is not churn).
   */
  planValues(scope: RevenueScope): Promise<PlanValueRow[]> {
    return this.dataSource.query<PlanValueRow[]>(
      `WITH ${COVERED}, sold AS (
         SELECT o.plan_id,
                (SELECT COALESCE(sum(p.amount_cents), 0) FROM payments p
                  WHERE p.order_id = o.id AND upper(p.currency) = $2 AND p.paid_at < ($5::date + interval '1 month') AT TIME ZONE 'UTC')
              - (SELECT COALESCE(sum(r.amount_cents), 0) FROM refunds r
                  WHERE r.order_id = o.id AND r.status = 'succeeded' AND upper(r.currency) = $2
                    AND r.created_at < ($5::date + interval '1 month') AT TIME ZONE 'UTC') AS net
           FROM orders o
          WHERE o.livemode = $1 AND o.paid_at < ($5::date + interval '1 month') AT TIME ZONE 'UTC'
       ), value AS (
         SELECT plan_id, count(*)::int AS buyers, sum(net)::bigint AS net_cents FROM sold GROUP BY plan_id
       ), churn AS (
         SELECT c.plan_id,
                count(*) FILTER (WHERE NOT c.paused AND c.month >= $4::date AND c.month <= $5::date)::int AS paying_months,
                count(*) FILTER (WHERE c.paused AND c.month >= $4::date AND c.month <= $5::date)::int AS paused_months,
                COALESCE(sum(c.monthly) FILTER (WHERE c.month >= $4::date AND c.month <= $5::date), 0) AS paid_monthly,
                count(*) FILTER (WHERE c.month >= ($4::date - interval '1 month') AND c.month < $5::date)::int AS at_risk,
                count(*) FILTER (WHERE c.month >= ($4::date - interval '1 month') AND c.month < $5::date AND NOT EXISTS
                  (SELECT 1 FROM order_months n
                    WHERE n.order_id = c.order_id AND n.month = (c.month + interval '1 month')::date))::int AS churned
           FROM order_months c GROUP BY c.plan_id
       )
       SELECT v.plan_id, v.buyers, v.net_cents,
              COALESCE(c.paying_months, 0) AS paying_months, COALESCE(c.paused_months, 0) AS paused_months,
              COALESCE(c.paid_monthly, 0)::text AS paid_monthly, COALESCE(c.at_risk, 0) AS at_risk, COALESCE(c.churned, 0) AS churned
         FROM value v LEFT JOIN churn c USING (plan_id) ORDER BY v.net_cents DESC, v.plan_id`,
      [scope.livemode, scope.currency, scope.yearlyPlanIds, scope.fromMonth, scope.toMonth],
    );
  }

  /** Paid orders of `planId` (not one-click themselves) in the range, how many were followed by a paid one-click order, and its plans. */
  async oneClick(
    scope: Pick<RevenueScope, 'livemode' | 'fromMonth' | 'toMonth'>,
    planId: string,
  ): Promise<{ buyers: number; took: number; by_plan: Array<{ planId: string; orders: number }> }> {
    const [row]: Array<{ buyers: number; took: number; by_plan: Array<{ planId: string; orders: number }> }> = await this.dataSource.query(
      `WITH base AS (
           SELECT o.id FROM orders o
            WHERE o.plan_id = $4 AND o.livemode = $1 AND o.one_click_source_id IS NULL
              AND o.paid_at >= ($2::date)::timestamp AT TIME ZONE 'UTC' AND o.paid_at < ($3::date + interval '1 month') AT TIME ZONE 'UTC'
         ), taken AS (
           SELECT u.one_click_source_id AS source_id, u.plan_id FROM orders u JOIN base b ON b.id = u.one_click_source_id WHERE u.paid_at IS NOT NULL
         )
         SELECT (SELECT count(*) FROM base)::int AS buyers,
                (SELECT count(DISTINCT source_id) FROM taken)::int AS took,
                COALESCE((SELECT json_agg(json_build_object('planId', plan_id, 'orders', n) ORDER BY plan_id)
                            FROM (SELECT plan_id, count(*)::int AS n FROM taken GROUP BY plan_id) p), '[]') AS by_plan`,
      [scope.livemode, scope.fromMonth, scope.toMonth, planId],
    );
    return row;
  }
}
