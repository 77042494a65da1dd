import type { ReactNode } from 'react';

interface DataTableProps {
  caption: string;
  columns: string[];
  /** Shown above the table where no heading names it already; else for screen readers only. */
  captionShown?: boolean;
  children: ReactNode;
}

/**
 * The dashboard's one table markup: a scrolling wrap, a caption (for screen readers only when the
 * panel's heading already shows it), a header row of `columns`, and the rows the caller renders.
 */
export function DataTable({ caption, columns, captionShown = false, children }: DataTableProps) {
  return (
    <div className="dash-table-wrap">
      <table className="dash-table">
        <caption className={captionShown ? undefined : 'visually-hidden'}>{caption}</caption>
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
