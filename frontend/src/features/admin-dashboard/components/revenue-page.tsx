import type { RevenueMode, RevenueReport, RevenueTable } from '@contracts/revenue';
import { useState, type FormEvent, type ReactNode } from 'react';
import { PageHeading } from '@/components/page-heading';
import { adminRevenue as copy } from '@/content/admin-revenue';
import { pages } from '@/content/pages';
import { downloadFile } from '../api/download-export';
import { revenueParams, useRevenue, type RevenueRange } from '../api/get-revenue';
import { formatCents, formatCount, formatRate, planName } from '../format';
import { LoadState } from './load-state';
import { MovementsChart, MrrChart } from './revenue-charts';
import '../dashboard.css';
import '../revenue.css';

/** Shades of the cohort table: the share of a cohort still paying, in fifths. */
const shade = (share: number) => `rev-cohort--${Math.round(share * 5)}`;

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

function Table({ caption, columns, children }: { caption: string; columns: string[]; children: ReactNode }) {
  return (
    <div className="dash-table-wrap">
      <table className="dash-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

function Summary({ report, money }: { report: RevenueReport; money: (cents: number) => string }) {
  const s = copy.summary;
  const items = [
    { label: s.mrrNow, value: money(report.mrrNowCents), note: s.mrrNowNote, id: 'mrr-now' },
    { label: s.payingNow, value: formatCount(report.payingNow), note: '', id: 'paying-now' },
    {
      label: s.recovery,
      value: formatRate(report.recovery.rate),
      note: s.recoveryNote(report.recovery.recovered, report.recovery.failed),
      id: 'recovery',
    },
    {
      label: s.oneClick,
      value: formatRate(report.oneClick.rate),
      note: s.oneClickNote(report.oneClick.took, report.oneClick.buyers),
      id: 'one-click',
    },
  ];
  return (
    <section className="dash-section" aria-labelledby="revenue-now">
      <h2 id="revenue-now">{s.heading}</h2>
      <ul className="dash-stages">
        {items.map((item) => (
          <li key={item.id} className="dash-stage">
            <span className="dash-stage__label">{item.label}</span>
            <strong className="dash-stage__value" data-testid={`revenue-${item.id}`}>
              {item.value}
            </strong>
            {item.note ? <span className="dash-stage__definition">{item.note}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Report({ report, range }: { report: RevenueReport; range: RevenueRange }) {
  const money = (cents: number) => formatCents(cents, report.currency);
  const m = copy.mrr.columns;
  const c = copy.churn.columns;
  const last = report.months.at(-1);
  const ages = Math.max(0, ...report.cohorts.map((cohort) => cohort.paying.length));
  return (
    <>
      <Summary report={report} money={money} />
      <Panel
        id="revenue-mrr"
        heading={copy.mrr.heading}
        intro={copy.mrr.pauses}
        table={{ name: copy.mrr.tableName, key: 'months' }}
        range={range}
      >
        <MrrChart months={report.months} format={money} label={copy.mrr.chartLabel(report.from, report.to, money(last?.mrrCents ?? 0))} />
        <MovementsChart months={report.months} label={copy.mrr.movementsLabel} />
        <Table caption={copy.mrr.heading} columns={Object.values(m)}>
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
        </Table>
      </Panel>
      <Panel
        id="revenue-churn"
        heading={copy.churn.heading}
        intro={copy.churn.intro}
        table={{ name: copy.churn.tableName, key: 'months' }}
        range={range}
      >
        <Table caption={copy.churn.heading} columns={Object.values(c)}>
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
        </Table>
      </Panel>
      <Panel id="revenue-members" heading={copy.members.heading} table={{ name: copy.members.tableName, key: 'members' }} range={range}>
        {report.activeByPlan.length === 0 ? (
          <p className="dash-state">{copy.members.empty}</p>
        ) : (
          <Table caption={copy.members.heading} columns={Object.values(copy.members.columns)}>
            {report.activeByPlan.map((row) => (
              <tr key={row.planId}>
                <th scope="row">{planName(row.planId)}</th>
                <td>{row.active}</td>
                <td>{row.canceling}</td>
                <td>{row.pastDue}</td>
              </tr>
            ))}
          </Table>
        )}
      </Panel>
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
          <Table caption={copy.plans.heading} columns={Object.values(copy.plans.columns)}>
            {report.plans.map((row) => (
              <tr key={row.planId} data-testid="revenue-plan">
                <th scope="row">{planName(row.planId)}</th>
                <td>{row.buyers}</td>
                <td>{money(row.netCents)}</td>
                <td>{money(row.averageCents)}</td>
                <td>{row.lifetimeValueCents === null ? copy.plans.noChurn : money(row.lifetimeValueCents)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Panel>
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
          <Table
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
          </Table>
        )}
      </Panel>
    </>
  );
}

/** The revenue screen: a range of months and live or test orders, then the figures, charts and tables. */
export function RevenuePage() {
  const initial = new URLSearchParams(window.location.search);
  const [range, setRange] = useState<RevenueRange>({
    from: initial.get('from') ?? '',
    to: initial.get('to') ?? '',
    mode: initial.get('mode') === 'test' ? 'test' : 'live',
  });
  const [draft, setDraft] = useState(range);
  const query = useRevenue(range);
  const report = query.data;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRange(draft);
  };
  const r = copy.range;
  return (
    <div className="admin__page">
      <PageHeading>{pages.adminRevenue.heading}</PageHeading>
      <p>{copy.intro}</p>
      <form className="dash-range" onSubmit={submit}>
        <fieldset>
          <legend>{r.legend}</legend>
          <div className="admin-field">
            <label htmlFor="revenue-from">{r.from}</label>
            <input
              id="revenue-from"
              type="month"
              value={draft.from || report?.from || ''}
              onChange={(e) => setDraft({ ...draft, from: e.target.value })}
            />
          </div>
          <div className="admin-field">
            <label htmlFor="revenue-to">{r.to}</label>
            <input
              id="revenue-to"
              type="month"
              value={draft.to || report?.to || ''}
              onChange={(e) => setDraft({ ...draft, to: e.target.value })}
            />
          </div>
          <div className="admin-field">
            <label htmlFor="revenue-mode">{r.mode}</label>
            <select id="revenue-mode" value={draft.mode} onChange={(e) => setDraft({ ...draft, mode: e.target.value as RevenueMode })}>
              <option value="live">{r.live}</option>
              <option value="test">{r.test}</option>
            </select>
          </div>
          <button type="submit" className="admin-button">
            {r.apply}
          </button>
        </fieldset>
      </form>
      <div className="dash" aria-busy={query.isFetching}>
        <LoadState
          pending={query.isPending}
          error={query.isError}
          empty={false}
          loadingText={copy.loading}
          errorText={copy.loadFailed}
          emptyText=""
          retryText={copy.retry}
          onRetry={() => void query.refetch()}
        >
          {report ? <Report report={report} range={range} /> : null}
        </LoadState>
      </div>
    </div>
  );
}
