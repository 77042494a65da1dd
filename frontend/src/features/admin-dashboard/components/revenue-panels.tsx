import type { RevenueReport, RevenueTable } from '@contracts/revenue';
import { useState, type ReactNode } from 'react';
import { adminRevenue as copy } from '@/content/admin-revenue';
import { downloadFile } from '../api/download-export';
import { revenueParams, type RevenueRange } from '../api/get-revenue';
import { formatCents, formatCount, planName } from '../format';
import { DataTable } from './data-table';
import { MovementsChart, MrrChart } from './revenue-charts';

/** Shades of the cohort table: the share of a cohort still paying, in fifths. */
const shade = (share: number) => `rev-cohort--${Math.round(share * 5)}`;

/** Amounts in the report's currency. */
export const moneyOf = (report: RevenueReport) => (cents: number) => formatCents(cents, report.currency);

interface PanelProps {
  report: RevenueReport;
  range: RevenueRange;
}

function Panel({
  id,
  heading,
  intro,
  table,
  range,
  children,
}: {
  id: string;
  heading: string;
  intro?: string;
  table: { name: string; key: RevenueTable };
  range: RevenueRange;
  children: ReactNode;
}) {
  const [failed, setFailed] = useState(false);
  const download = () => {
    setFailed(false);
    downloadFile('/api/admin/revenue/export.csv', { ...revenueParams(range), table: table.key }).catch(() => setFailed(true));
  };
  return (
    <section className="dash-section" aria-labelledby={id} data-testid={id}>
      <div className="dash-toolbar">
        <h2 id={id}>{heading}</h2>
        <button type="button" className="admin-button" onClick={download}>
          {copy.downloadCsv(table.name)}
        </button>
      </div>
      {intro ? <p>{intro}</p> : null}
      {failed ? <p role="alert">{copy.downloadFailed}</p> : null}
      {children}
    </section>
  );
}

/** Monthly recurring revenue: its chart, its movements, and the months as a table. */
export function MrrPanel({ report, range }: PanelProps) {
  const money = moneyOf(report);
  const m = copy.mrr.columns;
  const last = report.months.at(-1);
  return (
    <Panel
      id="revenue-mrr"
      heading={copy.mrr.heading}
      intro={copy.mrr.pauses}
      table={{ name: copy.mrr.tableName, key: 'months' }}
      range={range}
    >
      <MrrChart months={report.months} format={money} label={copy.mrr.chartLabel(report.from, report.to, money(last?.mrrCents ?? 0))} />
      <MovementsChart months={report.months} label={copy.mrr.movementsLabel} />
      <DataTable caption={copy.mrr.heading} columns={Object.values(m)}>
        {report.months.map((row) => (
          <tr key={row.month} data-testid="revenue-month">
            <th scope="row">{row.month}</th>
            <td>{money(row.mrrCents)}</td>
            <td>{formatCount(row.payingMembers)}</td>
            <td>{formatCount(row.membersOnPause)}</td>
            <td>{money(row.newCents)}</td>
            <td>{money(row.expansionCents)}</td>
            <td>{money(row.contractionCents)}</td>
            <td>{money(row.churnedCents)}</td>
            <td>{money(row.reactivatedCents)}</td>
            <td>{money(row.pausedCents)}</td>
            <td>{money(row.resumedCents)}</td>
          </tr>
        ))}
      </DataTable>
    </Panel>
  );
}

/** Who left each month, and how: cancelled, failed payments, refunds and disputes. */
export function ChurnPanel({ report, range }: PanelProps) {
  const money = moneyOf(report);
  const c = copy.churn.columns;
  return (
    <Panel
      id="revenue-churn"
      heading={copy.churn.heading}
      intro={copy.churn.intro}
      table={{ name: copy.churn.tableName, key: 'months' }}
      range={range}
    >
      <DataTable caption={copy.churn.heading} columns={Object.values(c)}>
        {report.months.map((row) => (
          <tr key={row.month} data-testid="revenue-churn-month">
            <th scope="row">{row.month}</th>
            <td>{row.churnedVoluntary}</td>
            <td>{row.churnedInvoluntary}</td>
            <td>{row.failedPayments}</td>
            <td>{row.recoveredPayments}</td>
            <td>{row.refunds}</td>
            <td>{money(row.refundedCents)}</td>
            <td>{row.disputes}</td>
            <td>{row.disputesLost}</td>
          </tr>
        ))}
      </DataTable>
    </Panel>
  );
}

/** The members paying now, by plan. */
export function MembersPanel({ report, range }: PanelProps) {
  return (
    <Panel id="revenue-members" heading={copy.members.heading} table={{ name: copy.members.tableName, key: 'members' }} range={range}>
      {report.activeByPlan.length === 0 ? (
        <p className="dash-state">{copy.members.empty}</p>
      ) : (
        <DataTable caption={copy.members.heading} columns={Object.values(copy.members.columns)}>
          {report.activeByPlan.map((row) => (
            <tr key={row.planId}>
              <th scope="row">{planName(row.planId)}</th>
              <td>{row.active}</td>
              <td>{row.canceling}</td>
              <td>{row.pastDue}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </Panel>
  );
}

/** What each plan has brought in, and what a buyer of it is worth. */
export function PlansPanel({ report, range }: PanelProps) {
  const money = moneyOf(report);
  return (
    <Panel
      id="revenue-plans"
      heading={copy.plans.heading}
      intro={copy.plans.intro}
      table={{ name: copy.plans.tableName, key: 'plans' }}
      range={range}
    >
      {report.plans.length === 0 ? (
        <p className="dash-state">{copy.plans.empty}</p>
      ) : (
        <DataTable caption={copy.plans.heading} columns={Object.values(copy.plans.columns)}>
          {report.plans.map((row) => (
            <tr key={row.planId} data-testid="revenue-plan">
              <th scope="row">{planName(row.planId)}</th>
              <td>{row.buyers}</td>
              <td>{money(row.netCents)}</td>
              <td>{money(row.averageCents)}</td>
              <td>{row.lifetimeValueCents === null ? copy.plans.noChurn : money(row.lifetimeValueCents)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </Panel>
  );
}

/** Each month's new members, and how many of them still pay after each month since. */
export function CohortsPanel({ report, range }: PanelProps) {
  const ages = Math.max(0, ...report.cohorts.map((cohort) => cohort.paying.length));
  return (
    <Panel
      id="revenue-cohorts"
      heading={copy.cohorts.heading}
      intro={copy.cohorts.intro}
      table={{ name: copy.cohorts.tableName, key: 'cohorts' }}
      range={range}
    >
      {report.cohorts.length === 0 ? (
        <p className="dash-state">{copy.cohorts.empty}</p>
      ) : (
        <DataTable
          caption={copy.cohorts.heading}
          columns={[
            copy.cohorts.columns.month,
            copy.cohorts.columns.members,
            ...Array.from({ length: ages }, (_, n) => copy.cohorts.columns.after(n)),
          ]}
        >
          {report.cohorts.map((cohort) => (
            <tr key={cohort.month} data-testid="revenue-cohort">
              <th scope="row">{cohort.month}</th>
              <td>{cohort.members}</td>
              {Array.from({ length: ages }, (_, n) =>
                n < cohort.paying.length ? (
                  <td key={n} className={`rev-cohort ${shade(cohort.paying[n] / Math.max(1, cohort.members))}`}>
                    {cohort.paying[n]}
                  </td>
                ) : (
                  <td key={n} />
                ),
              )}
            </tr>
          ))}
        </DataTable>
      )}
    </Panel>
  );
}
