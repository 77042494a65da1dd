import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PersonalDataOwner, PersonErasure, PersonFindings, PersonKey, SqlExecutor, TableColumns } from '../personal-data';
import { scrubDocuments } from './document-scrub';
import { affectedRows } from './sql-results';

export type SideEffectStatus = 'claimed' | 'done' | 'failed';

/** The recorded outcome: provider ids and status codes, never personal data. */
export interface SideEffectDetail {
  outcome?: string;
  /** Why the provider refused, for good (redacted). */
  reason?: string;
  [field: string]: unknown;
}

/**
 * A `side_effects` row: the ledger of external side effects (affiliate call, e-mail, conversion,
 * webhook). The row is claimed under its unique key before the call and finished after it; its
 * key is the idempotency key sent on every attempt, so a retry resumes the same call and a
 * finished row is never redone.
 */
interface SideEffectRow {
  /** `<kind>:<subject id>[:<more>]`. */
  key: string;
  kind: string;
  /** 'claimed' until the provider's answer is recorded; 'done' or 'failed' (refused for good) after. */
  status: SideEffectStatus;
  attempts: number;
  detail: SideEffectDetail;
  last_error: string | null;
  created_at: Date;
  last_attempt_at: Date;
  finished_at: Date | null;
}

export const PROVIDER_CALL_TABLES: readonly TableColumns[] = [
  // Details and errors are meant to hold ids and codes only, but a provider's message may quote an address.
  { table: 'side_effects', personal: ['detail', 'last_error'], notPersonal: ['key', 'kind', 'status'] },
];

/** A claim's state as the ledger reads it back. */
export type SideEffectClaim = Pick<SideEffectRow, 'key' | 'status' | 'detail' | 'attempts'>;

/** The side-effect ledger's rows (the worker's ProviderCallLedger batches its calls here). */
@Injectable()
export class ProviderCallRepository implements PersonalDataOwner {
  readonly tables = PROVIDER_CALL_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Creates each claim, or counts another attempt on an unfinished one. A finished row is left
   * as it is and not returned.
   */
  claim(inputs: ReadonlyArray<{ key: string; kind: string }>): Promise<SideEffectClaim[]> {
    return this.dataSource.query<SideEffectClaim[]>(
      `INSERT INTO side_effects (key, kind, status, attempts)
       SELECT key, kind, 'claimed', 1 FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS i(key, kind, ord) ORDER BY ord
       ON CONFLICT (key) DO UPDATE SET attempts = side_effects.attempts + 1, last_attempt_at = now()
        WHERE side_effects.status = 'claimed'
       RETURNING key, status, detail, attempts`,
      [inputs.map((i) => i.key), inputs.map((i) => i.kind)],
    );
  }

  findByKeys(keys: readonly string[]): Promise<SideEffectClaim[]> {
    return this.dataSource.query<SideEffectClaim[]>(`SELECT key, status, detail, attempts FROM side_effects WHERE key = ANY($1::text[])`, [
      keys,
    ]);
  }

  /** Records the providers' answers on rows still claimed. */
  async finish(
    outcomes: ReadonlyArray<{ key: string; status: Exclude<SideEffectStatus, 'claimed'>; detail: SideEffectDetail }>,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE side_effects s SET status = o.status, detail = o.detail, finished_at = now(), last_error = NULL
        FROM unnest($1::text[], $2::text[], $3::jsonb[]) AS o(key, status, detail)
       WHERE s.key = o.key AND s.status = 'claimed'`,
      [outcomes.map((o) => o.key), outcomes.map((o) => o.status), outcomes.map((o) => JSON.stringify(o.detail))],
    );
  }

  async noteError(key: string, message: string): Promise<void> {
    await this.dataSource.query(`UPDATE side_effects SET last_error = $2 WHERE key = $1 AND status = 'claimed'`, [key, message]);
  }

  /**
   * Deletes up to `batchSize` entries finished (done or failed) more than `days` ago; resolves
   * with how many. A claim still open is never deleted, nor an entry whose subject (the id in its
   * key) a job still open in the outbox names: that job may run again and must find it.
   */
  async deleteFinishedBefore(days: number, batchSize: number): Promise<number> {
    return affectedRows(
      await this.dataSource.query(
        `WITH owed AS MATERIALIZED (
           SELECT DISTINCT p.value AS subject
             FROM outbox o
             CROSS JOIN LATERAL jsonb_each_text(CASE WHEN jsonb_typeof(o.payload) = 'object' THEN o.payload ELSE '{}' END) AS p
            WHERE o.completed_at IS NULL AND o.failed_at IS NULL AND p.value IS NOT NULL
         )
         DELETE FROM side_effects WHERE key IN (
           SELECT s.key FROM side_effects s
            WHERE s.status <> 'claimed' AND s.finished_at < now() - make_interval(days => $1::int)
              AND NOT EXISTS (SELECT 1 FROM owed WHERE owed.subject = split_part(s.key, ':', 2))
            LIMIT $2 FOR UPDATE OF s SKIP LOCKED)`,
        [days, batchSize],
      ),
    );
  }

  /** The ledger entries about the rows earlier owners found (keyed by their ids). */
  async findPerson(person: PersonKey, sql: SqlExecutor): Promise<PersonFindings> {
    const { ids } = person;
    const sideEffects: Array<Record<string, unknown>> = ids.length
      ? await sql.query(`SELECT * FROM side_effects WHERE split_part(key, ':', 2) = ANY($1::text[]) ORDER BY created_at, key`, [ids])
      : [];
    return { sections: { sideEffects }, subjects: [], emails: [], names: [] };
  }

  async erasePerson(erasure: PersonErasure, sql: SqlExecutor): Promise<Record<string, number>> {
    await scrubDocuments(sql, erasure, [
      { table: 'side_effects', key: 'key', column: 'detail', json: true, keyedBySubject: true },
      { table: 'side_effects', key: 'key', column: 'last_error', json: false, keyedBySubject: true },
    ]);
    return {};
  }
}
