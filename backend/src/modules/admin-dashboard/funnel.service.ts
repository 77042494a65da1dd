import { Injectable } from '@nestjs/common';
import { DEFAULT_PLAN_ID } from '@contracts/plans';
import { UPGRADE_PLAN_IDS, type FunnelPlanRow, type FunnelReferralRow, type FunnelReport, type FunnelStages } from '@contracts/admin';
import { FunnelEventRepository } from '@core/database/repositories/funnel-event.repository';
import type { GroupedRow } from '@core/database/repositories/grouped-row';
import { InvitationRepository } from '@core/database/repositories/invitation.repository';
import { LeadRepository } from '@core/database/repositories/lead.repository';
import { OrderReportRepository, type PurchaseFigures } from '@core/database/repositories/order-report.repository';
import type { ReportRange } from './report-range';

const EMPTY: FunnelStages = { visitors: 0, leads: 0, checkouts: 0, purchases: 0, revenueCents: 0 };

/**
 * The funnel dashboard's figures, from our own records only: beacons (funnel_events), leads,
 * paid orders (live apart from test), invitations and checkout reminders. Seven queries, each one
 * pass over its range.
 */
@Injectable()
export class FunnelService {
  constructor(
    private readonly funnelEvents: FunnelEventRepository,
    private readonly leads: LeadRepository,
    private readonly orders: OrderReportRepository,
    private readonly invitations: InvitationRepository,
  ) {}

  async report({ from, to }: ReportRange): Promise<FunnelReport> {
    const [events, leads, orders, testOrders, upgrade, invitations, reminders] = await Promise.all([
      this.funnelEvents.visitorsAndCheckouts(from, to),
      this.leads.newLeads(from, to),
      this.orders.purchases(from, to),
      this.orders.testPurchases(from, to),
      this.orders.upgrades(from, to, DEFAULT_PLAN_ID, UPGRADE_PLAN_IDS),
      this.invitations.funnel(from, to),
      this.leads.reminderFigures(from, to),
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
      testOrders: { purchases: testOrders.purchases, revenueCents: Number(testOrders.revenue_cents) },
      byPlan: byPlan(events, orders),
      byReferral: byReferral(events, leads, orders),
      upgrade: {
        standardBuyers: up.standard_buyers,
        upgraded: up.upgraded,
        rate: up.standard_buyers === 0 ? 0 : up.upgraded / up.standard_buyers,
        byPlan: up.by_plan,
      },
      invitations,
      reminders: { sent: reminders.reminders_sent, paidWithin7Days: reminders.paid_after },
    };
  }
}

const isTotal = (row: GroupedRow) => Number(row.g_referral) === 1 && Number(row.g_plan) === 1;
const isByReferral = (row: GroupedRow) => Number(row.g_referral) === 0;
const isByPlan = (row: GroupedRow) => Number(row.g_plan) === 0;

function byPlan(
  events: Array<GroupedRow & { checkouts: number }>,
  orders: Array<GroupedRow & PurchaseFigures>,
): FunnelPlanRow[] {
  const rows = new Map<string, FunnelPlanRow>();
  const row = (planId: string) =>
    rows.get(planId) ?? rows.set(planId, { planId, checkouts: 0, purchases: 0, revenueCents: 0, bumpOffered: 0, bumpTaken: 0 }).get(planId)!;
  // Page views carry no plan: only checkout starts count here.
  for (const event of events.filter(isByPlan))
    if (event.plan_id !== null && event.checkouts > 0) row(event.plan_id).checkouts = event.checkouts;
  for (const order of orders.filter(isByPlan)) {
    const target = row(order.plan_id as string);
    target.purchases = order.purchases;
    target.revenueCents = Number(order.revenue_cents);
    target.bumpOffered = order.bump_offered;
    target.bumpTaken = order.bump_taken;
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
