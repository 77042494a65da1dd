import type { RevenueMode, RevenueReport } from '@contracts/revenue';
import { useState, type FormEvent } from 'react';
import { PageHeading } from '@/components/page-heading';
import { adminRevenue as copy } from '@/content/admin-revenue';
import { pages } from '@/content/pages';
import { useRevenue, type RevenueRange } from '../api/get-revenue';
import { formatCount, formatRate } from '../format';
import { LoadState } from './load-state';
import { ChurnPanel, CohortsPanel, MembersPanel, moneyOf, MrrPanel, PlansPanel } from './revenue-panels';
import '../dashboard.css';
import '../revenue.css';

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
  return (
    <>
      <Summary report={report} money={moneyOf(report)} />
      <MrrPanel report={report} range={range} />
      <ChurnPanel report={report} range={range} />
      <MembersPanel report={report} range={range} />
      <PlansPanel report={report} range={range} />
      <CohortsPanel report={report} range={range} />
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
