import type { FunnelReport } from '@contracts/admin';
import { CURRENCY } from '@contracts/plans';
import { useState, type FormEvent } from 'react';
import { adminDashboard } from '@/content/admin';
import { useFunnel, type FunnelRange } from '../api/get-funnel';
import { formatCents, formatCount, formatRate, planName, utcDay } from '../format';
import { DataTable } from './data-table';
import { LoadState } from './load-state';

const copy = adminDashboard.funnel;

function Stage({ label, value, definition, previous }: { label: string; value: number; definition: string; previous?: number }) {
  return (
    <li className="dash-stage">
      <span className="dash-stage__label">{label}</span>
      <strong className="dash-stage__value" data-testid={`stage-${label}`}>
        {formatCount(value)}
      </strong>
      {previous !== undefined && previous > 0 ? (
        <span className="dash-stage__rate">{copy.conversion(formatRate(value / previous))}</span>
      ) : null}
      <span className="dash-stage__definition">{definition}</span>
    </li>
  );
}

function Breakdowns({ report }: { report: FunnelReport }) {
  const stages = copy.stages;
  return (
    <>
      <DataTable
        caption={copy.byPlanHeading}
        columns={[copy.planColumn, stages.checkouts, stages.purchases, stages.revenue, copy.bumpColumn]}
        captionShown
      >
        {report.byPlan.map((row) => (
          <tr key={row.planId}>
            <th scope="row">{planName(row.planId)}</th>
            <td>{formatCount(row.checkouts)}</td>
            <td>{formatCount(row.purchases)}</td>
            <td>{formatCents(row.revenueCents, CURRENCY)}</td>
            <td data-testid={`bump-rate-${row.planId}`}>
              {row.bumpOffered > 0
                ? copy.bumpRate(formatCount(row.bumpTaken), formatCount(row.bumpOffered), formatRate(row.bumpTaken / row.bumpOffered))
                : copy.bumpNotOffered}
            </td>
          </tr>
        ))}
      </DataTable>
      <DataTable
        caption={copy.byReferralHeading}
        columns={[copy.referralColumn, stages.visitors, stages.leads, stages.checkouts, stages.purchases, stages.revenue]}
        captionShown
      >
        {report.byReferral.map((row) => (
          <tr key={row.referral ?? ''} data-testid="referral-row">
            <th scope="row">{row.referral ?? copy.noReferral}</th>
            <td>{formatCount(row.visitors)}</td>
            <td>{formatCount(row.leads)}</td>
            <td>{formatCount(row.checkouts)}</td>
            <td>{formatCount(row.purchases)}</td>
            <td>{formatCents(row.revenueCents, CURRENCY)}</td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}

function Report({ report }: { report: FunnelReport }) {
  const { totals, upgrade, invitations, reminders } = report;
  const stages = copy.stages;
  return (
    <>
      <ol className="dash-stages" aria-label={copy.heading}>
        <Stage label={stages.visitors} value={totals.visitors} definition={copy.definitions.visitors} />
        <Stage label={stages.leads} value={totals.leads} definition={copy.definitions.leads} previous={totals.visitors} />
        <Stage label={stages.checkouts} value={totals.checkouts} definition={copy.definitions.checkouts} previous={totals.leads} />
        <Stage label={stages.purchases} value={totals.purchases} definition={copy.definitions.purchases} previous={totals.checkouts} />
      </ol>
      <p className="dash-revenue">
        {stages.revenue}: <strong data-testid="revenue">{formatCents(totals.revenueCents, CURRENCY)}</strong>
      </p>
      {report.testOrders.purchases > 0 ? (
        <p className="dash-test-orders" data-testid="test-orders">
          {copy.testOrders(formatCount(report.testOrders.purchases), formatCents(report.testOrders.revenueCents, CURRENCY))}
        </p>
      ) : null}
      <div className="dash-columns">
        <section className="admin-card" aria-labelledby="dash-upgrade">
          <h3 id="dash-upgrade">{copy.upgradeHeading}</h3>
          <p className="dash-big" data-testid="upgrade-rate">
            {formatRate(upgrade.rate)}
          </p>
          <p>{copy.upgradeSummary(upgrade.upgraded, upgrade.standardBuyers)}</p>
          {upgrade.byPlan.length > 0 ? (
            <ul className="dash-plain">
              {upgrade.byPlan.map((row) => (
                <li key={row.planId}>
                  {planName(row.planId)}: {formatCount(row.buyers)}
                </li>
              ))}
            </ul>
          ) : null}
          <p className="dash-note">{copy.upgradeDefinition}</p>
        </section>
        <section className="admin-card" aria-labelledby="dash-invitations">
          <h3 id="dash-invitations">{copy.invitationsHeading}</h3>
          <dl className="dash-pairs">
            <dt>{copy.invitationStages.invited}</dt>
            <dd>{formatCount(invitations.invited)}</dd>
            <dt>{copy.invitationStages.verified}</dt>
            <dd>{formatCount(invitations.verified)}</dd>
            <dt>{copy.invitationStages.purchased}</dt>
            <dd>{formatCount(invitations.purchased)}</dd>
          </dl>
          <p className="dash-note">{copy.invitationsDefinition}</p>
        </section>
        <section className="admin-card" aria-labelledby="dash-reminders">
          <h3 id="dash-reminders">{copy.remindersHeading}</h3>
          <dl className="dash-pairs">
            <dt>{copy.reminderStages.sent}</dt>
            <dd data-testid="reminders-sent">{formatCount(reminders.sent)}</dd>
            <dt>{copy.reminderStages.paidWithin7Days}</dt>
            <dd data-testid="reminders-paid">{formatCount(reminders.paidWithin7Days)}</dd>
          </dl>
          <p className="dash-note">{copy.remindersDefinition}</p>
        </section>
      </div>
      <Breakdowns report={report} />
    </>
  );
}

export function FunnelSection() {
  const [range, setRange] = useState<FunnelRange>(() => ({ from: utcDay(6), to: utcDay(0) }));
  const [draft, setDraft] = useState(range);
  const funnel = useFunnel(range);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRange(draft);
  };

  const report = funnel.data;
  const empty = report
    ? report.totals.visitors + report.totals.leads + report.totals.purchases + report.invitations.invited + report.reminders.sent === 0
    : false;
  return (
    <section className="dash-section" aria-labelledby="dash-funnel">
      <h2 id="dash-funnel">{copy.heading}</h2>
      <form className="dash-range" onSubmit={submit}>
        <fieldset>
          <legend>{copy.rangeLegend}</legend>
          <div className="admin-field">
            <label htmlFor="dash-from">{copy.fromLabel}</label>
            <input
              id="dash-from"
              type="date"
              required
              value={draft.from}
              max={draft.to}
              onChange={(e) => setDraft({ ...draft, from: e.target.value })}
            />
          </div>
          <div className="admin-field">
            <label htmlFor="dash-to">{copy.toLabel}</label>
            <input
              id="dash-to"
              type="date"
              required
              value={draft.to}
              min={draft.from}
              onChange={(e) => setDraft({ ...draft, to: e.target.value })}
            />
          </div>
          <button type="submit" className="admin-button">
            {copy.apply}
          </button>
        </fieldset>
      </form>
      <div aria-busy={funnel.isFetching}>
        <LoadState
          pending={funnel.isPending}
          error={funnel.isError}
          empty={false}
          loadingText={copy.loading}
          errorText={(funnel.error as { serverMessage?: string } | null)?.serverMessage ?? copy.loadFailed}
          emptyText={copy.empty}
          retryText={copy.retry}
          onRetry={() => void funnel.refetch()}
        >
          {report ? (
            <>
              {empty ? <p className="dash-state">{copy.empty}</p> : null}
              <Report report={report} />
            </>
          ) : null}
        </LoadState>
      </div>
    </section>
  );
}
