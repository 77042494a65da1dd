import { adminDashboard } from '@/content/admin';

const copy = adminDashboard.records;

/** Previous / next for a paged admin table, with the position announced politely. */
export function Pager({
  label,
  page,
  pageSize,
  total,
  onPage,
}: {
  label: string;
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="dash-pager" aria-label={label}>
      <button type="button" className="admin-button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {copy.previous}
      </button>
      <span aria-live="polite">{copy.pageOf(page, pages, total)}</span>
      <button type="button" className="admin-button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {copy.next}
      </button>
    </nav>
  );
}
