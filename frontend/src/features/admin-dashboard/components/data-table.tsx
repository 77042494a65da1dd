import type { ReactNode } from 'react';

/**
 * The dashboard's one table markup: a scrolling wrap, a caption for screen readers (the panel's
 * heading already shows it), a header row of `columns`, and the rows the caller renders.
 */
export function DataTable({ caption, columns, children }: { caption: string; columns: string[]; children: ReactNode }) {
  return (
    <div className="dash-table-wrap">
      <table className="dash-table">
        <caption className="visually-hidden">{caption}</caption>
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
