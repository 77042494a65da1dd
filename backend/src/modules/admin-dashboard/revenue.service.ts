import { Injectable } from '@nestjs/common';
import { minorUnitDigits, minorUnitsPerMajor } from '@contracts/money';
import { CURRENCY, DEFAULT_PLAN_ID, findPlan, PLANS } from '@contracts/plans';
import type { RevenueCohort, RevenueMode, RevenueMonth, RevenuePlanValue, RevenueReport, RevenueTable } from '@contracts/revenue';
import {
  RevenueReportRepository,
  type MonthEventsRow,
  type PlanValueRow,
  type RevenueScope,
} from '@core/database/repositories/revenue-report.repository';
import { toCsv, type CsvValue } from './csv';
import type { MonthRange } from './revenue-range';

const YEARLY_PLAN_IDS = PLANS.filter((plan) => plan.kind === 'subscription' && plan.interval === 'year').map((plan) => plan.id);

/** YYYY-MM of every month from the range's first to its last. */
function monthsOf({ fromMonth, toMonth }: MonthRange): string[] {
  const months: string[] = [];
  for (let at = new Date(`${fromMonth}T00:00:00Z`); at.toISOString().slice(0, 10) <= toMonth; at.setUTCMonth(at.getUTCMonth() + 1)) {
    months.push(at.toISOString().slice(0, 7));
  }
  return months;
}

const NO_EVENTS: Omit<MonthEventsRow, 'month'> = {
  refunds: 0,
  refunded_cents: '0',
  disputes: 0,
  disputes_lost: 0,
  disputed_cents: '0',
  failed: 0,
  recovered: 0,
};

/**
 * A subscription plan's buyer is worth what a month of membership pays (months on pause pay
 * nothing) for as many months as the plan's churn lets them stay.
 */
function planValue(row: PlanValueRow): RevenuePlanValue {
  const netCents = Number(row.net_cents);
  const averageCents = row.buyers === 0 ? 0 : Math.round(netCents / row.buyers);
  const subscription = findPlan(row.plan_id)?.kind === 'subscription';
  const memberMonths = row.paying_months + row.paused_months;
  const monthlyCents = memberMonths === 0 ? 0 : Number(row.paid_monthly) / memberMonths;
  const lifetimeValueCents = !subscription
    ? averageCents
    : row.churned === 0
      ? null
      : Math.round(monthlyCents / (row.churned / row.at_risk));
  return { planId: row.plan_id, buyers: row.buyers, netCents, averageCents, lifetimeValueCents };
}

/** The revenue dashboard: the repository's figures shaped month by month, and each table as CSV. */
@Injectable()
export class RevenueService {
  constructor(private readonly revenue: RevenueReportRepository) {}

  async report(range: MonthRange, mode: RevenueMode = 'live'): Promise<RevenueReport> {
    const scope: RevenueScope = { livemode: mode === 'live', currency: CURRENCY, yearlyPlanIds: YEARLY_PLAN_IDS, ...range };
    const [moves, events, cohortCells, now, activeByPlan, planValues, oneClick] = await Promise.all([
      this.revenue.monthMoves(scope),
      this.revenue.monthEvents(scope),
      this.revenue.cohorts(scope),
      this.revenue.mrrNow(scope),
      this.revenue.activeByPlan(scope.livemode),
      this.revenue.planValues(scope),
      this.revenue.oneClick(scope, DEFAULT_PLAN_ID),
    ]);
    const monthList = monthsOf(range);
    const movesOf = new Map(moves.map((row) => [row.month, row]));
    const eventsOf = new Map(events.map((row) => [row.month, row]));
    const months: RevenueMonth[] = monthList.map((month) => {
      const m = movesOf.get(month);
      const e = eventsOf.get(month) ?? NO_EVENTS;
      return {
        month,
        mrrCents: Number(m?.mrr ?? 0),
        payingMembers: m?.paying ?? 0,
        newCents: Number(m?.new_cents ?? 0),
        newMembers: m?.new_members ?? 0,
        expansionCents: Number(m?.expansion_cents ?? 0),
        contractionCents: Number(m?.contraction_cents ?? 0),
        churnedCents: Number(m?.churned_cents ?? 0),
        churnedVoluntary: m?.churned_voluntary ?? 0,
        churnedInvoluntary: m?.churned_involuntary ?? 0,
        reactivatedCents: Number(m?.reactivated_cents ?? 0),
        reactivatedMembers: m?.reactivated_members ?? 0,
        membersOnPause: m?.on_pause ?? 0,
        pausedCents: Number(m?.paused_cents ?? 0),
        pausedMembers: m?.paused_members ?? 0,
        resumedCents: Number(m?.resumed_cents ?? 0),
        resumedMembers: m?.resumed_members ?? 0,
        refunds: e.refunds,
        refundedCents: Number(e.refunded_cents),
        disputes: e.disputes,
        disputesLost: e.disputes_lost,
        disputedCents: Number(e.disputed_cents),
        failedPayments: e.failed,
        recoveredPayments: e.recovered,
      };
    });
    const cohorts: RevenueCohort[] = [];
    for (const cell of cohortCells) {
      let cohort = cohorts.at(-1);
      if (cohort?.month !== cell.cohort) {
        const age = monthList.length - monthList.indexOf(cell.cohort);
        cohort = { month: cell.cohort, members: 0, paying: Array<number>(age).fill(0) };
        cohorts.push(cohort);
      }
      cohort.paying[cell.age] = cell.members;
      if (cell.age === 0) cohort.members = cell.members;
    }
    const failed = months.reduce((sum, m) => sum + m.failedPayments, 0);
    const recovered = months.reduce((sum, m) => sum + m.recoveredPayments, 0);
    return {
      mode,
      currency: CURRENCY,
      from: monthList[0],
      to: monthList[monthList.length - 1],
      mrrNowCents: Number(now.mrr),
      payingNow: now.paying,
      months,
      activeByPlan: activeByPlan.map((row) => ({
        planId: row.plan_id,
        active: row.active,
        canceling: row.canceling,
        pastDue: row.past_due,
      })),
      plans: planValues.map(planValue),
      cohorts,
      recovery: { failed, recovered, rate: failed === 0 ? 0 : recovered / failed },
      oneClick: {
        buyers: oneClick.buyers,
        took: oneClick.took,
        rate: oneClick.buyers === 0 ? 0 : oneClick.took / oneClick.buyers,
        byPlan: oneClick.by_plan,
      },
    };
  }

  /** One of the report's tables as CSV: amounts in whole units of the currency, named in the header. */
  async csv(table: RevenueTable, range: MonthRange, mode: RevenueMode = 'live'): Promise<string> {
    const report = await this.report(range, mode);
    const code = report.currency.toLowerCase();
    const money = (cents: number | null): CsvValue =>
      cents === null ? null : (cents / minorUnitsPerMajor(report.currency)).toFixed(minorUnitDigits(report.currency));
    switch (table) {
      case 'months':
        return toCsv(
          [
            'month',
            `mrr_${code}`,
            'paying_members',
            `new_${code}`,
            'new_members',
            `expansion_${code}`,
            `contraction_${code}`,
            `churned_${code}`,
            'churned_voluntary',
            'churned_involuntary',
            `reactivated_${code}`,
            'reactivated_members',
            'refunds',
            `refunded_${code}`,
            'disputes',
            'disputes_lost',
            `disputed_${code}`,
            'failed_payments',
            'recovered_payments',
            'members_on_pause',
            `paused_${code}`,
            'paused_members',
            `resumed_${code}`,
            'resumed_members',
          ],
          report.months.map((m) => [
            m.month,
            money(m.mrrCents),
            m.payingMembers,
            money(m.newCents),
            m.newMembers,
            money(m.expansionCents),
            money(m.contractionCents),
            money(m.churnedCents),
            m.churnedVoluntary,
            m.churnedInvoluntary,
            money(m.reactivatedCents),
            m.reactivatedMembers,
            m.refunds,
            money(m.refundedCents),
            m.disputes,
            m.disputesLost,
            money(m.disputedCents),
            m.failedPayments,
            m.recoveredPayments,
            m.membersOnPause,
            money(m.pausedCents),
            m.pausedMembers,
            money(m.resumedCents),
            m.resumedMembers,
          ]),
        );
      case 'members':
        return toCsv(
          ['plan', 'plan_name', 'active', 'canceling', 'past_due'],
          report.activeByPlan.map((p) => [p.planId, findPlan(p.planId)?.name ?? null, p.active, p.canceling, p.pastDue]),
        );
      case 'plans':
        return toCsv(
          ['plan', 'plan_name', 'buyers', `net_revenue_${code}`, `average_revenue_${code}`, `lifetime_value_${code}`],
          report.plans.map((p) => [
            p.planId,
            findPlan(p.planId)?.name ?? null,
            p.buyers,
            money(p.netCents),
            money(p.averageCents),
            money(p.lifetimeValueCents),
          ]),
        );
      case 'cohorts': {
        const ages = Math.max(0, ...report.cohorts.map((c) => c.paying.length));
        return toCsv(
          ['cohort', 'members', ...Array.from({ length: ages }, (_, n) => `month_${n}`)],
          report.cohorts.map((c) => [c.month, c.members, ...c.paying, ...Array<null>(ages - c.paying.length).fill(null)]),
        );
      }
    }
  }
}
