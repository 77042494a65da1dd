import { useState } from 'react';
import { adminDashboard } from '@/content/admin';
import { AUDIT_PAGE_SIZE, useAudit } from '../api/get-audit';
import { formatTime } from '../format';
import { LoadState } from './load-state';

const copy = adminDashboard.audit;
const pagerCopy = adminDashboard.records;

export function AuditSection() {
  const [page, setPage] = useState(1);
  const audit = useAudit(page);
  const data = audit.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / AUDIT_PAGE_SIZE)) : 1;
  return (
    <section className="dash-section" aria-labelledby="dash-audit" data-testid="audit-log">
      <h2 id="dash-audit">{copy.heading}</h2>
      <p>{copy.intro}</p>
      <div aria-busy={audit.isFetching}>
        <LoadState
          pending={audit.isPending}
          error={audit.isError}
          empty={data?.items.length === 0}
          loadingText={copy.loading}
          errorText={copy.loadFailed}
          emptyText={copy.empty}
          retryText={copy.retry}
          onRetry={() => void audit.refetch()}
        >
          {data ? (
            <>
              <div className="dash-table-wrap">
                <table className="dash-table">
                  <caption className="visually-hidden">{copy.heading}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{copy.columns.at}</th>
                      <th scope="col">{copy.columns.action}</th>
                      <th scope="col">{copy.columns.admin}</th>
                      <th scope="col">{copy.columns.target}</th>
                      <th scope="col">{copy.columns.clientIp}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((entry) => (
                      <tr key={entry.id}>
                        <td>{formatTime(entry.at)}</td>
                        <th scope="row">{entry.action}</th>
                        <td>{entry.admin ?? copy.unknownAdmin}</td>
                        <td className="dash-wrap">{entry.target ?? '—'}</td>
                        <td>{entry.clientIp ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <nav className="dash-pager" aria-label={copy.heading}>
                <button type="button" className="admin-button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  {pagerCopy.previous}
                </button>
                <span aria-live="polite">{pagerCopy.pageOf(page, pages, data.total)}</span>
                <button type="button" className="admin-button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  {pagerCopy.next}
                </button>
              </nav>
            </>
          ) : null}
        </LoadState>
      </div>
    </section>
  );
}
