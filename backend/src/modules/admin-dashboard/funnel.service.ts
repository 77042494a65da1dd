import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  UPGRADE_PLAN_IDS,
  type FunnelPlanRow,
  type FunnelReferralRow,
  type FunnelReport,
  type FunnelStages,
} from '@contracts/admin';
import type { ReportRange } from './report-range';

/** A GROUPING SETS row: `g_*` is 1 where that column is rolled up (the total), 0 where it groups. */
interface GroupedRow {
  g_referral: number;
  g_plan: number;
  referral: string | null;
  plan_id: string | null;
}

const EMPTY: FunnelStages = { visitors: 0, leads: 0, checkouts: 0, purchases: 0, revenueCents: 0 };

/**
 * The funnel dashboard's figures, from our own records only: beacons (funnel_events), leads,
 * paid orders and invitations. Five queries, each one pass over its range.
 */
@Injectable()
export class FunnelService {
  constructor(private readonly dataSource: DataSource) {}

  async report({ from, to }: ReportRange): Promise<FunnelReport> {
    const range = [from, to];
    const [events, leads, orders, upgrade, invitations] = await Promise.all([
      this.dataSource.query(
        `SELECT GROUPING(referral) AS g_referral, GROUPING(plan_id) AS g_plan, referral, plan_id,
                count(DISTINCT visitor_id) FILTER (WHERE type = 'page_view')::int AS visitors,
                count(*) FILTER (WHERE type = 'checkout_start')::int AS checkouts
           FROM funnel_events
          WHERE occurred_at >= $1 AND occurred_at < $2
          GROUP BY GROUPING SETS ((), (referral), (plan_id))`,
        range,
      ) as Promise<Array<GroupedRow & { visitors: number; checkouts: number }>>,
      this.dataSource.query(
        `SELECT GROUPING(referral) AS g_referral, 1 AS g_plan, referral, NULL AS plan_id, count(*)::int AS leads
           FROM leads
          WHERE first_submitted_at >= $1 AND first_submitted_at < $2
          GROUP BY GROUPING SETS ((), (referral))`,
        range,
      ) as Promise<Array<GroupedRow & { leads: number }>>,
      this.dataSource.query(
        `SELECT GROUPING(referral) AS g_referral, GROUPING(plan_id) AS g_plan, referral, plan_id,
                count(*)::int AS purchases, COALESCE(sum(amount_cents), 0)::bigint AS revenue_cents
           FROM orders
          WHERE paid_at >= $1 AND paid_at < $2
          GROUP BY GROUPING SETS ((), (referral), (plan_id))`,
        range,
      ) as Promise<Array<GroupedRow & { purchases: number; revenue_cents: string }>>,
      this.dataSource.query(
        `WITH standard AS (
           SELECT DISTINCT email_normalized FROM orders WHERE plan_id = 'standard' AND paid_at >= $1 AND paid_at < $2
         ), upgrades AS (
           SELECT DISTINCT s.email_normalized, u.plan_id
             FROM standard s JOIN orders u ON u.email_normalized = s.email_normalized
            WHERE u.plan_id = ANY($3) AND u.paid_at < $2
         )
         SELECT (SELECT count(*) FROM standard)::int AS standard_buyers,
                (SELECT count(DISTINCT email_normalized) FROM upgrades)::int AS upgraded,
                COALESCE((SELECT json_agg(json_build_object('planId', plan_id, 'buyers', n) ORDER BY plan_id)
                            FROM (SELECT plan_id, count(*)::int AS n FROM upgrades GROUP BY plan_id) p), '[]') AS by_plan`,
        [...range, [...UPGRADE_PLAN_IDS]],
      ) as Promise<Array<{ standard_buyers: number; upgraded: number; by_plan: Array<{ planId: string; buyers: number }> }>>,
      this.dataSource.query(
        `SELECT count(*)::int AS invited,
                count(*) FILTER (WHERE i.verified_at < $2)::int AS verified,
                count(*) FILTER (WHERE EXISTS (
                  SELECT 1 FROM orders o
                   WHERE o.paid_at < $2
                     AND (o.invitation_token_hash IN (SELECT t.token_hash FROM invitation_tokens t WHERE t.invitation_id = i.id)
                          OR (o.source = 'blackcard' AND o.email_normalized = i.email_normalized))))::int AS purchased
           FROM invitations i
          WHERE i.created_at >= $1 AND i.created_at < $2`,
        range,
      ) as Promise<Array<{ invited: number; verified: number; purchased: number }>>,
    ]);

    const [up] = upgrade;
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      totals: {
        visitors: events.find(isTotal)?.visitors ?? 0,
        leads: leads.find(isTotal)?.leads ?? 0,
        checkouts: events.find(isTotal)?.checkouts ?? 0,
        purchases: orders.find(isTotal)?.purchases ?? 0,
        revenueCents: Number(orders.find(isTotal)?.revenue_cents ?? 0),
      },
      byPlan: byPlan(events, orders),
      byReferral: byReferral(events, leads, orders),
      upgrade: {
        standardBuyers: up.standard_buyers,
        upgraded: up.upgraded,
        rate: up.standard_buyers === 0 ? 0 : up.upgraded / up.standard_buyers,
        byPlan: up.by_plan,
      },
      invitations: invitations[0],
    };
  }
}

const isTotal = (row: GroupedRow) => Number(row.g_referral) === 1 && Number(row.g_plan) === 1;
const isByReferral = (row: GroupedRow) => Number(row.g_referral) === 0;
const isByPlan = (row: GroupedRow) => Number(row.g_plan) === 0;

function byPlan(
  events: Array<GroupedRow & { checkouts: number }>,
  orders: Array<GroupedRow & { purchases: number; revenue_cents: string }>,
): FunnelPlanRow[] {
  const rows = new Map<string, FunnelPlanRow>();
  const row = (planId: string) =>
    rows.get(planId) ?? rows.set(planId, { planId, checkouts: 0, purchases: 0, revenueCents: 0 }).get(planId)!;
  // Page views carry no plan: only checkout starts count here.
  for (const event of events.filter(isByPlan))
    if (event.plan_id !== null && event.checkouts > 0) row(event.plan_id).checkouts = event.checkouts;
  for (const order of orders.filter(isByPlan)) {
    const target = row(order.plan_id as string);
    target.purchases = order.purchases;
    target.revenueCents = Number(order.revenue_cents);
  }
  return [...rows.values()].sort(
    (a, b) => b.revenueCents - a.revenueCents || b.checkouts - a.checkouts || a.planId.localeCompare(b.planId),
  );
}

function byReferral(
  events: Array<GroupedRow & { visitors: number; checkouts: number }>,
  leads: Array<GroupedRow & { leads: number }>,
  orders: Array<GroupedRow & { purchases: number; revenue_cents: string }>,
): FunnelReferralRow[] {
  const rows = new Map<string | null, FunnelReferralRow>();
  const row = (referral: string | null) => rows.get(referral) ?? rows.set(referral, { referral, ...EMPTY }).get(referral)!;
  for (const event of events.filter(isByReferral))
    Object.assign(row(event.referral), { visitors: event.visitors, checkouts: event.checkouts });
  for (const lead of leads.filter(isByReferral)) row(lead.referral).leads = lead.leads;
  for (const order of orders.filter(isByReferral))
    Object.assign(row(order.referral), { purchases: order.purchases, revenueCents: Number(order.revenue_cents) });
  return [...rows.values()].sort(
    (a, b) => b.revenueCents - a.revenueCents || b.visitors - a.visitors || String(a.referral).localeCompare(String(b.referral)),
  );
}
