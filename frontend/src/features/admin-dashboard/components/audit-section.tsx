import type { AdminAuditRow } from '@contracts/admin';
import { CURRENCY } from '@contracts/plans';
import { useState } from 'react';
import { adminDashboard } from '@/content/admin';
import { AUDIT_PAGE_SIZE, useAudit } from '../api/get-audit';
import { formatCents, formatTime } from '../format';
import { TablePanel } from './table-panel';
import { Pager } from './pager';

const copy = adminDashboard.audit;

/** The target, and what it alone does not say: a refund's id and amount. */
function targetOf({ target, details }: AdminAuditRow): string {
  const parts = [target ?? '—'];
  if (typeof details?.refundId === 'string') parts.push(`refund:${details.refundId}`);
  if (typeof details?.amountCents === 'number')
    parts.push(formatCents(details.amountCents, typeof details.currency === 'string' ? details.currency : CURRENCY));
  return parts.join(' ');
}

export function AuditSection() {
  const [page, setPage] = useState(1);
  const audit = useAudit(page);
  const data = audit.data;
  return (
    <TablePanel
      id="dash-audit"
      testId="audit-log"
      copy={copy}
      query={audit}
      columns={[copy.columns.at, copy.columns.action, copy.columns.admin, copy.columns.target, copy.columns.clientIp]}
      rows={data?.items.map((entry) => (
        <tr key={entry.id}>
          <td>{formatTime(entry.at)}</td>
          <th scope="row">{entry.action}</th>
          <td>{entry.admin ?? copy.unknownAdmin}</td>
          <td className="dash-wrap">{targetOf(entry)}</td>
          <td>{entry.clientIp ?? '—'}</td>
        </tr>
      ))}
      footer={data ? <Pager label={copy.heading} page={page} pageSize={AUDIT_PAGE_SIZE} total={data.total} onPage={setPage} /> : null}
    />
  );
}
