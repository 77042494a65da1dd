import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PersonalDataOwner, PersonErasure, PersonFindings, SqlExecutor, TableColumns } from '../personal-data';
import { nothingFound } from '../personal-data';
import { scrubDocuments } from './document-scrub';
import { affectedRows } from './sql-results';

/**
 * An `outbox` row: a side effect the API owes, written in the same transaction as the data that
 * caused it. The relay hands it to BullMQ (jobId = id, dispatched_at); the worker stamps
 * completed_at or failed_at.
 */
interface OutboxRow {
  id: string;
  queue: string;
  /** Persisted: a row may name a job this build does not know. */
  job_name: string;
  /** The job's payload (`JobItem['data']` of its job name). */
  payload: unknown;
  created_at: Date;
  /** Due then, not before (a job owed for later); null: due at once. */
  available_at: Date | null;
  dispatched_at: Date | null;
  /** A relay is handing the row to Redis until then; other relays leave it alone. */
  lease_until: Date | null;
  /** A relay saw the row and did not know its job name: it waits for a worker that does. */
  unhandled_at: Date | null;
  dispatch_count: number;
  completed_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
}

export type NewOutboxEntry = Pick<OutboxRow, 'queue' | 'job_name' | 'payload'> & {
  /** Due this many seconds after the insert; null: at once. */
  delay_seconds?: number | null;
};

/** A row the relay leased, with how long BullMQ is to hold its job back (0: due now). */
export type ClaimedOutboxRow = Pick<OutboxRow, 'id' | 'job_name' | 'payload' | 'created_at'> & { delay_ms: number };

/** A job that gave up: its row, failed with the reason, until an admin retries it. */
export type ExhaustedOutboxRow = Pick<OutboxRow, 'id' | 'queue' | 'job_name' | 'last_error' | 'created_at' | 'dispatch_count'> & {
  failed_at: Date;
};

export const OUTBOX_TABLES: readonly TableColumns[] = [
  // Payloads and errors are not keyed by person but may name one (a webhook event, an SMTP refusal).
  { table: 'outbox', personal: ['payload', 'last_error'], notPersonal: ['queue', 'job_name'] },
  // Jobs completed and given up, by job name, counted as the worker stamps them.
  { table: 'outbox_outcome_totals', personal: [], notPersonal: ['job_name'] },
];

/** Adds the `stamped` rows (a CTE of job names) to the per-job totals; the counts are SQL expressions. */
const COUNT_INTO_TOTALS = (completed: string, failed: string) => `
  INSERT INTO outbox_outcome_totals AS t (job_name, completed, failed)
  SELECT job_name, ${completed}, ${failed} FROM stamped GROUP BY job_name ORDER BY job_name
  ON CONFLICT (job_name) DO UPDATE SET completed = t.completed + excluded.completed, failed = t.failed + excluded.failed`;

/**
 * Inserts outbox rows inside the caller's transaction (see `owe`). Resolves with their ids, in
 * the order of `entries`.
 */
export async function insertOutboxEntries(sql: SqlExecutor, entries: readonly NewOutboxEntry[]): Promise<string[]> {
  const rows: Array<Pick<OutboxRow, 'id'>> = await sql.query(
    `INSERT INTO outbox (queue, job_name, payload, available_at)
     SELECT queue, job_name, payload, now() + make_interval(secs => delay_s)
       FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::float8[]) WITH ORDINALITY AS j(queue, job_name, payload, delay_s, ord)
      ORDER BY ord
     RETURNING id`,
    [
      entries.map((entry) => entry.queue),
      entries.map((entry) => entry.job_name),
      entries.map((entry) => JSON.stringify(entry.payload)),
      entries.map((entry) => entry.delay_seconds ?? null),
    ],
  );
  return rows.map((row) => row.id);
}

/** Counts of open rows by queue, for the metrics scrape. */
export interface OpenOutboxFigures {
  queue: string;
  undispatched: number;
  in_flight: number;
  unhandled: number;
  lag_seconds: number;
}

/** Finished rows by job name, for the metrics scrape. */
export interface OutboxOutcomeFigures {
  job_name: string;
  completed: number;
  failed: number;
}

/** The outbox: what is owed (`owe`), its relay to BullMQ, the worker's outcome stamps and the figures read from it. */
@Injectable()
export class OutboxRepository implements PersonalDataOwner {
  readonly tables = OUTBOX_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Leases up to `batchSize` never-dispatched rows and up to `batchSize` rows due for redispatch,
   * in one statement. SKIP LOCKED and the lease keep concurrent relays off the same rows. A row
   * owed for later is handed over at once as a delayed job (`delay_ms`, from the database's
   * clock); it counts as due for redispatch only once its job should have run, so a delayed job
   * Redis lost is added again then.
   */
  async claimDue(jobNames: readonly string[], batchSize: number, redispatchAfterMs: number, leaseMs: number): Promise<ClaimedOutboxRow[]> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [rows]: [ClaimedOutboxRow[], number] = await this.dataSource.query(
      `WITH fresh AS (
         SELECT id FROM outbox
          WHERE dispatched_at IS NULL AND completed_at IS NULL AND failed_at IS NULL
            AND job_name = ANY($1::text[]) AND (lease_until IS NULL OR lease_until < now())
          ORDER BY created_at
          LIMIT $2
          FOR UPDATE SKIP LOCKED
       ), stale AS (
         SELECT id FROM outbox
          WHERE dispatched_at < now() - make_interval(secs => $3::double precision / 1000)
            AND (available_at IS NULL OR available_at < now() - make_interval(secs => $3::double precision / 1000))
            AND completed_at IS NULL AND failed_at IS NULL
            AND job_name = ANY($1::text[]) AND (lease_until IS NULL OR lease_until < now())
          ORDER BY dispatched_at
          LIMIT $2
          FOR UPDATE SKIP LOCKED
       )
       UPDATE outbox o SET lease_until = now() + make_interval(secs => $4::double precision / 1000), unhandled_at = NULL
        WHERE o.id IN (SELECT id FROM fresh UNION ALL SELECT id FROM stale)
       RETURNING o.id, o.job_name, o.payload, o.created_at,
         GREATEST(0, COALESCE(extract(epoch FROM o.available_at - now()) * 1000, 0))::float8 AS delay_ms`,
      [jobNames, batchSize, redispatchAfterMs, leaseMs],
    );
    return rows;
  }

  async releaseLease(ids: readonly string[]): Promise<void> {
    await this.dataSource.query(`UPDATE outbox SET lease_until = NULL WHERE id = ANY($1::uuid[])`, [ids]);
  }

  async markDispatched(ids: readonly string[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE outbox SET dispatched_at = now(), dispatch_count = dispatch_count + 1, lease_until = NULL WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  }

  /** Marks undispatched rows whose job is none of `jobNames` (health counts them); resolves with their counts by job name. */
  async markUnhandled(jobNames: readonly string[]): Promise<Array<{ job_name: string; n: number }>> {
    const counts: Array<{ job_name: string; n: number }> = await this.dataSource.query(
      `WITH marked AS (
         UPDATE outbox SET unhandled_at = now()
          WHERE dispatched_at IS NULL AND completed_at IS NULL AND failed_at IS NULL
            AND unhandled_at IS NULL AND job_name <> ALL($1::text[])
         RETURNING 1
       )
       SELECT job_name, count(*)::int AS n FROM outbox
        WHERE dispatched_at IS NULL AND completed_at IS NULL AND failed_at IS NULL AND job_name <> ALL($1::text[])
        GROUP BY job_name ORDER BY job_name`,
      [jobNames],
    );
    return counts;
  }

  /**
   * Stamps the rows done and adds them to `outbox_outcome_totals` in the same statement, so the
   * job counts are read from that small table, never by scanning the outbox. A job that had given
   * up and was retried from the queue page and then succeeded is done, no longer failed (its
   * giving up stays counted). Totals rows are locked in job-name order, so two workers' batches
   * cannot deadlock on them.
   */
  async markCompleted(ids: readonly string[]): Promise<void> {
    await this.dataSource.query(
      `WITH stamped AS (
         UPDATE outbox SET completed_at = now(), failed_at = NULL WHERE id = ANY($1::uuid[]) AND completed_at IS NULL
         RETURNING job_name
       )
       ${COUNT_INTO_TOTALS('count(*)', '0')}`,
      [ids],
    );
  }

  /** The job gave up (its retry horizon passed, or it was refused for good): the relay stops offering it. Counted once. */
  async markFailed(id: string, error: string): Promise<void> {
    await this.dataSource.query(
      `WITH stamped AS (
         UPDATE outbox SET failed_at = now(), last_error = $2 WHERE id = $1::uuid AND failed_at IS NULL AND completed_at IS NULL
         RETURNING job_name
       )
       ${COUNT_INTO_TOTALS('0', 'count(*)')}`,
      [id, error],
    );
  }

  /** Jobs that gave up and were not retried since, most recent first, with their total count. */
  async exhausted(limit: number): Promise<{ rows: ExhaustedOutboxRow[]; total: number }> {
    const rows: Array<ExhaustedOutboxRow & { total: number }> = await this.dataSource.query(
      `SELECT id, queue, job_name, last_error, created_at, failed_at, dispatch_count, count(*) OVER ()::int AS total
         FROM outbox WHERE failed_at IS NOT NULL AND completed_at IS NULL
        ORDER BY failed_at DESC, id LIMIT $1`,
      [limit],
    );
    // No row at all means none gave up (limit is at least 1).
    return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0]?.total ?? 0 };
  }

  async findExhausted(id: string): Promise<ExhaustedOutboxRow | null> {
    const [row]: ExhaustedOutboxRow[] = await this.dataSource.query(
      `SELECT id, queue, job_name, last_error, created_at, failed_at, dispatch_count
         FROM outbox WHERE id = $1::uuid AND failed_at IS NOT NULL AND completed_at IS NULL`,
      [id],
    );
    return row ?? null;
  }

  /**
   * Offers a job that gave up again, in the caller's transaction: the relay hands it to BullMQ
   * under the same job id (its outbox id), with a fresh retry horizon. False when it is not (or
   * no longer) a job that gave up.
   */
  async reopenExhausted(sql: SqlExecutor, id: string): Promise<boolean> {
    const result: unknown = await sql.query(
      `UPDATE outbox SET failed_at = NULL, dispatched_at = NULL, lease_until = NULL, unhandled_at = NULL
        WHERE id = $1::uuid AND failed_at IS NOT NULL AND completed_at IS NULL
       RETURNING id`,
      [id],
    );
    return affectedRows(result) === 1;
  }

  async noteError(id: string, error: string): Promise<void> {
    await this.dataSource.query(`UPDATE outbox SET last_error = $2 WHERE id = $1::uuid`, [id, error]);
  }

  /** Each count matches one of the outbox's partial indexes, so it stays cheap as the table grows. */
  async pendingCounts(): Promise<{ undispatched: number; in_flight: number; unhandled: number }> {
    const [row]: Array<{ undispatched: number; in_flight: number; unhandled: number }> = await this.dataSource.query(
      `SELECT
         (SELECT count(*) FROM outbox WHERE dispatched_at IS NULL AND completed_at IS NULL AND failed_at IS NULL)::int AS undispatched,
         (SELECT count(*) FROM outbox WHERE dispatched_at IS NOT NULL AND completed_at IS NULL AND failed_at IS NULL)::int AS in_flight,
         (SELECT count(*) FROM outbox WHERE dispatched_at IS NULL AND completed_at IS NULL AND failed_at IS NULL
            AND unhandled_at IS NOT NULL)::int AS unhandled`,
    );
    return row;
  }

  /** Open rows by queue and finished rows by job name, in one transaction that Postgres ends after `timeoutMs`. */
  figures(timeoutMs: number): Promise<readonly [OpenOutboxFigures[], OutboxOutcomeFigures[]]> {
    return this.dataSource.transaction(async (tx) => {
      // Postgres gives up on its own too, so a slow count does not keep a pooled connection busy.
      await tx.query(`SET LOCAL statement_timeout = ${Math.floor(timeoutMs)}`);
      // Open rows only: the outbox's partial indexes keep this small however long the table grows.
      const open: OpenOutboxFigures[] = await tx.query(
        `SELECT queue,
           count(*) FILTER (WHERE dispatched_at IS NULL)::int AS undispatched,
           count(*) FILTER (WHERE dispatched_at IS NOT NULL)::int AS in_flight,
           count(*) FILTER (WHERE dispatched_at IS NULL AND unhandled_at IS NOT NULL)::int AS unhandled,
           COALESCE(extract(epoch FROM now() - min(created_at) FILTER (WHERE dispatched_at IS NULL)), 0)::float8 AS lag_seconds
         FROM outbox WHERE completed_at IS NULL AND failed_at IS NULL GROUP BY queue`,
      );
      // One row per job name, kept up to date as the worker stamps rows: the outbox is not scanned.
      const outcomes: OutboxOutcomeFigures[] = await tx.query(
        `SELECT job_name, completed::float8 AS completed, failed::float8 AS failed FROM outbox_outcome_totals`,
      );
      return [open, outcomes] as const;
    });
  }

  /**
   * Deletes up to `batchSize` rows whose job finished (done, or failed for good) more than `days`
   * ago; resolves with how many. They were counted in `outbox_outcome_totals` when stamped, so
   * the job counts never go down. Open rows are never touched.
   */
  async deleteFinishedBefore(days: number, batchSize: number): Promise<number> {
    const [{ n }]: Array<{ n: number }> = await this.dataSource.query(
      `WITH doomed AS (
         SELECT id FROM outbox
          WHERE (completed_at IS NOT NULL OR failed_at IS NOT NULL)
            AND COALESCE(completed_at, failed_at) < now() - make_interval(days => $1::int)
          LIMIT $2 FOR UPDATE SKIP LOCKED
       ), gone AS (
         DELETE FROM outbox o USING doomed d WHERE o.id = d.id RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
      [days, batchSize],
    );
    return n;
  }

  /** Queued payloads are keyed by job, not person: nothing to list, only to scrub. */
  findPerson(): Promise<PersonFindings> {
    return Promise.resolve(nothingFound());
  }

  async erasePerson(erasure: PersonErasure, sql: SqlExecutor): Promise<Record<string, number>> {
    await scrubDocuments(sql, erasure, [
      { table: 'outbox', key: 'id', column: 'payload', json: true },
      { table: 'outbox', key: 'id', column: 'last_error', json: false },
    ]);
    return {};
  }
}
