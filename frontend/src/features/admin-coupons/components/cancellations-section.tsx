import type { AdminCancellations, CancelReason } from '@contracts/cancellation';
import { findPlan } from '@contracts/plans';
import { adminCoupons } from '@/content/admin-coupons';
import { useCancellations } from '../api/get-cancellations';

const copy = adminCoupons.cancellations;
const reasonOf = (reason: CancelReason | null): string => (reason ? copy.reasons[reason] : copy.noReason);
const outcomeOf = (row: Pick<AdminCancellations['recent'][number], 'outcome' | 'pauseMonths'>): string =>
  row.outcome === 'paused' && row.pauseMonths ? copy.pausedFor(row.pauseMonths) : copy.outcomes[row.outcome];

/** What members answered in the cancellation flow: counts by reason and outcome, and the latest answers with their words. */
export function CancellationsSection() {
  const cancellations = useCancellations();
  return (
    <section aria-labelledby="cancellations-heading" data-testid="cancellations">
      <h2 id="cancellations-heading">{copy.heading}</h2>
      <p>{copy.intro}</p>
      {cancellations.isPending ? (
        <p role="status">{copy.loading}</p>
      ) : cancellations.isError ? (
        <p role="alert">{copy.loadFailed}</p>
      ) : cancellations.data.counts.length === 0 ? (
        <p>{copy.empty}</p>
      ) : (
        <div className="coupons-table-wrap">
          <table className="coupons-table" data-testid="cancellation-counts">
            <thead>
              <tr>
                <th scope="col">{copy.reason}</th>
                <th scope="col">{copy.outcome}</th>
                <th scope="col">{copy.count}</th>
              </tr>
            </thead>
            <tbody>
              {cancellations.data.counts.map((row) => (
                <tr key={`${row.reason ?? ''}:${row.outcome}`}>
                  <th scope="row">{reasonOf(row.reason)}</th>
                  <td>{copy.outcomes[row.outcome]}</td>
                  <td>{row.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>{copy.latest}</h3>
          <table className="coupons-table" data-testid="cancellation-recent">
            <thead>
              <tr>
                <th scope="col">{copy.date}</th>
                <th scope="col">{copy.plan}</th>
                <th scope="col">{copy.reason}</th>
                <th scope="col">{copy.outcome}</th>
                <th scope="col">{copy.detail}</th>
              </tr>
            </thead>
            <tbody>
              {cancellations.data.recent.map((row, index) => (
                <tr key={`${row.createdAt}:${index}`}>
                  <td>{`${row.createdAt.slice(0, 16).replace('T', ' ')} UTC`}</td>
                  <td>{findPlan(row.planId)?.name ?? row.planId}</td>
                  <td>{reasonOf(row.reason)}</td>
                  <td>{outcomeOf(row)}</td>
                  <td>{row.detail ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
