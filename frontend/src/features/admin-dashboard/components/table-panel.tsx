import type { ReactNode } from 'react';
import { DataTable } from './data-table';
import { LoadState } from './load-state';

/** The words every table panel of the dashboard shows around its rows. */
export interface TablePanelCopy {
  heading: string;
  intro: string;
  loading: string;
  loadFailed: string;
  empty: string;
  retry: string;
}

/** The query state a panel follows (a react-query result of a list with its items). */
export interface TablePanelQuery {
  isFetching: boolean;
  isPending: boolean;
  isError: boolean;
  data?: { items: unknown[] };
  refetch: () => unknown;
}

/**
 * A dashboard panel: heading, intro, the list's loading, failed and empty states, then a table of
 * `columns` with `rows` and whatever follows it (a pager, a count).
 */
export function TablePanel({
  id,
  testId,
  copy,
  query,
  columns,
  rows,
  footer,
}: {
  id: string;
  testId: string;
  copy: TablePanelCopy;
  query: TablePanelQuery;
  columns: string[];
  rows: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <section className="dash-section" aria-labelledby={id} data-testid={testId}>
      <h2 id={id}>{copy.heading}</h2>
      <p>{copy.intro}</p>
      <div aria-busy={query.isFetching}>
        <LoadState
          pending={query.isPending}
          error={query.isError}
          empty={query.data?.items.length === 0}
          loadingText={copy.loading}
          errorText={copy.loadFailed}
          emptyText={copy.empty}
          retryText={copy.retry}
          onRetry={() => void query.refetch()}
        >
          {query.data ? (
            <>
              <DataTable caption={copy.heading} columns={columns}>
                {rows}
              </DataTable>
              {footer}
            </>
          ) : null}
        </LoadState>
      </div>
    </section>
  );
}
