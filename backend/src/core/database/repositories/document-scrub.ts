import type { PersonErasure, SqlExecutor } from '../personal-data';
import { scrubJson, scrubText } from '../person-scrub';
import { containsPattern } from './sql-results';

/** A column of stored documents or messages that is not keyed by person, so an erasure searches it. */
export interface ScrubbedColumn {
  table: string;
  key: string;
  column: string;
  json: boolean;
  /** Ledger keys are `<kind>:<subject id>[:<more>]`: rows keyed by one of the person's ids are theirs whatever they hold. */
  keyedBySubject?: boolean;
}

/**
 * Webhook events, queued payloads, ledger details and messages are not keyed by person, so they
 * are searched: the address is replaced wherever it occurs, names only in rows about their ids.
 */
export async function scrubDocuments(sql: SqlExecutor, erasure: PersonErasure, columns: readonly ScrubbedColumn[]): Promise<void> {
  const { ids } = erasure;
  const patterns = [...erasure.emails, ...ids].map(containsPattern);
  for (const { table, key, column, json, keyedBySubject } of columns) {
    const rows: Array<{ k: string; v: unknown }> = await sql.query(
      `SELECT ${key} AS k, ${column} AS v FROM ${table} WHERE ${column}::text ILIKE ANY($1::text[])${keyedBySubject ? ` OR split_part(${key}, ':', 2) = ANY($2::text[])` : ''} FOR UPDATE`,
      keyedBySubject ? [patterns, ids] : [patterns],
    );
    for (const row of rows) {
      const text = json ? JSON.stringify(row.v) : String(row.v);
      const tied = ids.some((id) => text.includes(id) || row.k.includes(id));
      const scrubbed = json ? scrubJson(row.v, erasure, tied) : scrubText(String(row.v), erasure, tied);
      await sql.query(`UPDATE ${table} SET ${column} = $2 WHERE ${key} = $1`, [row.k, json ? JSON.stringify(scrubbed) : scrubbed]);
    }
  }
}
