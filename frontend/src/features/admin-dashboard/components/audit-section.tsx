import { useState } from 'react';
import { adminDashboard } from '@/content/admin';
import { AUDIT_PAGE_SIZE, useAudit } from '../api/get-audit';
import { formatTime } from '../format';
import { LoadState } from './load-state';
import { Pager } from './pager';

const copy = adminDashboard.audit;

export function AuditSection() {
  const [page, setPage] = useState(1);
  const audit = useAudit(page);
  const data = audit.data;
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
              <Pager label={copy.heading} page={page} pageSize={AUDIT_PAGE_SIZE} total={data.total} onPage={setPage} />
            </>
          ) : null}
        </LoadState>
      </div>
    </section>
  );
}
