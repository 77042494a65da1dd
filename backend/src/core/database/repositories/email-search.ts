import type { DataSource } from 'typeorm';

/** What one admin list reads: its table, the columns it shows, its newest-first order. */
export interface EmailSearchSource {
  table: string;
  columns: string;
  newestFirst: string;
}

/**
 * The admin's search of one table by normalised e-mail (LIKE a pattern, see containsPattern),
 * newest first: a page with the number of all matches, or every match up to a limit for an export.
 */
export class EmailSearch<Row> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly source: EmailSearchSource,
  ) {}

  /** One page, and the number of all matches: carried by each row, counted apart for a page past the end. */
  async page(pattern: string, limit: number, offset: number): Promise<{ rows: Row[]; total: number }> {
    const { table, columns, newestFirst } = this.source;
    const rows = await this.dataSource.query<Array<Row & { total: string }>>(
      `SELECT ${columns}, count(*) OVER () AS total FROM ${table} WHERE email_normalized LIKE $1
        ORDER BY ${newestFirst} LIMIT $2 OFFSET $3`,
      [pattern, limit, offset],
    );
    if (rows.length > 0) return { rows, total: Number(rows[0].total) };
    const [{ total }] = await this.dataSource.query<Array<{ total: number }>>(
      `SELECT count(*)::int AS total FROM ${table} WHERE email_normalized LIKE $1`,
      [pattern],
    );
    return { rows, total };
  }

  /** Every match up to `limit`, newest first. */
  upTo(pattern: string, limit: number): Promise<Row[]> {
    const { table, columns, newestFirst } = this.source;
    return this.dataSource.query<Row[]>(`SELECT ${columns} FROM ${table} WHERE email_normalized LIKE $1 ORDER BY ${newestFirst} LIMIT $2`, [
      pattern,
      limit,
    ]);
  }
}
