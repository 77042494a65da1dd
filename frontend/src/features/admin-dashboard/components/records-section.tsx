import type { AdminLeadRow, AdminMemberRow, AdminOrderRow } from '@contracts/admin';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { notify } from '@/components/toast/notify';
import { adminDashboard } from '@/content/admin';
import { forgetSessionOn401 } from '@/lib/admin-session';
import { ApiError } from '@/lib/api-client';
import { useDownload } from '../api/download-export';
import { PAGE_SIZE, useRecords, type RecordKind, type RecordRow } from '../api/get-records';
import { formatCents, formatCount, formatTime, planName } from '../format';
import { DataTable } from './data-table';
import { LoadState } from './load-state';
import { Pager } from './pager';

const copy = adminDashboard.records;
const cols = copy.columns;
const COLUMNS: Record<RecordKind, string[]> = {
  leads: [cols.email, cols.name, cols.referral, cols.submissions, cols.lastSubmitted],
  orders: [cols.email, cols.name, cols.plan, cols.amount, cols.status, cols.referral, cols.created, cols.paid],
  members: [cols.email, cols.name, cols.product, cols.status, cols.plan, cols.granted, cols.ended],
};

function LeadRows({ rows }: { rows: AdminLeadRow[] }) {
  return rows.map((lead) => (
    <tr key={lead.id}>
      <th scope="row">{lead.email}</th>
      <td>{lead.name ?? '—'}</td>
      <td>{lead.referral ?? '—'}</td>
      <td>{formatCount(lead.submissionCount)}</td>
      <td>{formatTime(lead.lastSubmittedAt)}</td>
    </tr>
  ));
}

function OrderRows({ rows }: { rows: AdminOrderRow[] }) {
  return rows.map((order) => (
    <tr key={order.id}>
      <th scope="row">{order.email}</th>
      <td>{order.name}</td>
      <td>{planName(order.planId)}</td>
      <td>{formatCents(order.amountCents, order.currency)}</td>
      <td>{order.status}</td>
      <td>{order.referral ?? '—'}</td>
      <td>{formatTime(order.createdAt)}</td>
      <td>{formatTime(order.paidAt)}</td>
    </tr>
  ));
}

function MemberRows({ rows }: { rows: AdminMemberRow[] }) {
  return rows.map((member) => (
    <tr key={member.id}>
      <th scope="row">{member.email}</th>
      <td>{member.name ?? '—'}</td>
      <td>{member.productName}</td>
      <td>{copy.memberStatus[member.status] ?? member.status}</td>
      <td>{member.planId ? planName(member.planId) : '—'}</td>
      <td>{formatTime(member.grantedAt)}</td>
      <td>{formatTime(member.endedAt)}</td>
    </tr>
  ));
}

function RecordsTable({ kind, items, caption }: { kind: RecordKind; items: RecordRow<RecordKind>[]; caption: string }) {
  return (
    <DataTable caption={caption} columns={COLUMNS[kind]}>
      {kind === 'leads' ? (
        <LeadRows rows={items as AdminLeadRow[]} />
      ) : kind === 'orders' ? (
        <OrderRows rows={items as AdminOrderRow[]} />
      ) : (
        <MemberRows rows={items as AdminMemberRow[]} />
      )}
    </DataTable>
  );
}

const HEADINGS: Record<RecordKind, string> = { leads: copy.leadsHeading, orders: copy.ordersHeading, members: copy.membersHeading };
const EMPTY: Record<RecordKind, string> = { leads: copy.emptyLeads, orders: copy.emptyOrders, members: copy.emptyMembers };

/** Recent leads, orders or members: search by e-mail, page through, export what the search matches as CSV. */
export function RecordsSection({ kind }: { kind: RecordKind }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const records = useRecords(kind, q, page);
  const download = useDownload();
  const heading = HEADINGS[kind];

  useEffect(() => {
    if (records.error) forgetSessionOn401(queryClient, records.error);
  }, [queryClient, records.error]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQ(draft.trim());
    setPage(1);
  };

  const exportCsv = () =>
    download.mutate(
      { path: `/api/admin/${kind}/export.csv`, params: { q } },
      {
        onError: (error) => {
          if (!forgetSessionOn401(queryClient, error))
            notify({
              tone: 'destructive',
              title: copy.exportFailed,
              description: (error instanceof ApiError && error.serverMessage) || undefined,
            });
        },
      },
    );

  const data = records.data;
  return (
    <section className="dash-section" aria-labelledby={`${id}-heading`} data-testid={`records-${kind}`}>
      <h2 id={`${id}-heading`}>{heading}</h2>
      <div className="dash-toolbar">
        <form className="dash-search" role="search" aria-label={heading} onSubmit={submit}>
          <div className="admin-field">
            <label htmlFor={`${id}-q`}>{copy.searchLabel}</label>
            <input
              id={`${id}-q`}
              type="search"
              maxLength={254}
              autoComplete="off"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
            />
          </div>
          <button type="submit" className="admin-button">
            {copy.search}
          </button>
        </form>
        <button type="button" className="admin-button" disabled={download.isPending} onClick={exportCsv}>
          {download.isPending ? copy.exporting : copy.exportCsv}
        </button>
      </div>
      <div aria-busy={records.isFetching}>
        <LoadState
          pending={records.isPending}
          error={records.isError}
          empty={data?.items.length === 0}
          loadingText={copy.loading}
          errorText={copy.loadFailed}
          emptyText={EMPTY[kind]}
          retryText={copy.retry}
          onRetry={() => void records.refetch()}
        >
          {data ? (
            <>
              <RecordsTable kind={kind} items={data.items} caption={heading} />
              <Pager label={heading} page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} />
            </>
          ) : null}
        </LoadState>
      </div>
    </section>
  );
}
