import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PersonalDataOwner, PersonErasure, PersonFindings, SqlExecutor, TableColumns } from '../personal-data';
import { nothingFound } from '../personal-data';
import { scrubDocuments } from './document-scrub';
import { affectedRows } from './sql-results';
import { JOB_QUEUE, JOBS, type JobItem } from '@contracts/jobs';

/** A `payment_events` row: a webhook event as received, stored once per provider event id; the worker applies it. */
export interface PaymentEventRow {
  id: string;
  type: string;
  /** The event as the provider sent it. */
  payload: { data?: { object?: Record<string, unknown> } };
  received_at: Date;
  applied_at: Date | null;
}

export const PAYMENT_EVENT_TABLES: readonly TableColumns[] = [
  // A provider's event may carry the buyer's billing name and address.
  { table: 'payment_events', personal: ['payload'], notPersonal: ['id', 'type'] },
];

@Injectable()
export class PaymentEventRepository implements PersonalDataOwner {
  readonly tables = PAYMENT_EVENT_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores the event unless its id is known and, if it is stored now, owes `job` (the one that
   * applies it) in the same statement: atomic without a transaction's BEGIN and COMMIT round
   * trips. Resolves with whether the event was new (false for a redelivery).
   */
  async insertOnceOwing(id: string, type: string, payload: unknown, job: JobItem): Promise<boolean> {
    const owed: unknown[] = await this.dataSource.query(
      `WITH stored AS (
         INSERT INTO payment_events (id, type, payload) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id
       )
       INSERT INTO outbox (queue, job_name, payload) SELECT $4, $5, $6 FROM stored RETURNING id`,
      [id, type, JSON.stringify(payload), JOB_QUEUE[job.name], job.name, JSON.stringify(job.data)],
    );
    return owed.length === 1;
  }

  /**
   * Stores each event whose id is not known yet and owes one `payment-event` job that applies,
   * in the order given, those stored now with something to apply: one statement in the caller's
   * transaction. An event stored `applied` (one with nothing to apply) is stored with its
   * applied_at already set and owes nothing.
   */
  async insertManyOnceOwing(
    sql: SqlExecutor,
    events: ReadonlyArray<{ id: string; type: string; payload: unknown; applied?: boolean }>,
  ): Promise<void> {
    if (events.length === 0) return;
    await sql.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::boolean[]) WITH ORDINALITY AS e(id, type, payload, applied, ord)
       ), stored AS (
         INSERT INTO payment_events (id, type, payload, applied_at)
         SELECT id, type, payload, CASE WHEN applied THEN now() END FROM input ORDER BY ord
         ON CONFLICT (id) DO NOTHING
         RETURNING id, applied_at
       ), owing AS (
         SELECT array_agg(input.id ORDER BY input.ord) AS ids FROM stored JOIN input USING (id) WHERE stored.applied_at IS NULL
       )
       INSERT INTO outbox (queue, job_name, payload)
       SELECT $5, $6, CASE WHEN cardinality(ids) > 1
                           THEN jsonb_build_object('eventId', ids[1], 'moreEventIds', to_jsonb(ids[2:]))
                           ELSE jsonb_build_object('eventId', ids[1]) END
         FROM owing WHERE ids IS NOT NULL`,
      [
        events.map((e) => e.id),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.payload)),
        events.map((e) => e.applied === true),
        JOB_QUEUE[JOBS.paymentEvent],
        JOBS.paymentEvent,
      ],
    );
  }

  /** The stored events of these ids, by id (in one statement). */
  async findMany(ids: readonly string[]): Promise<Map<string, PaymentEventRow>> {
    const rows: PaymentEventRow[] = await this.dataSource.query(
      `SELECT id, type, payload, received_at, applied_at FROM payment_events WHERE id = ANY($1::text[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * Events still unapplied `olderThanMs` after they arrived (their job keeps failing, gave up, or
   * was lost), received within the last `withinMs`, oldest first: what the reconciler re-reads.
   */
  findStaleUnapplied(
    olderThanMs: number,
    withinMs: number,
    limit: number,
  ): Promise<Array<Pick<PaymentEventRow, 'id' | 'type' | 'payload'>>> {
    return this.dataSource.query<Array<Pick<PaymentEventRow, 'id' | 'type' | 'payload'>>>(
      `SELECT id, type, payload FROM payment_events
        WHERE applied_at IS NULL
          AND received_at < now() - make_interval(secs => $1::float8 / 1000)
          AND received_at > now() - make_interval(secs => $2::float8 / 1000)
        ORDER BY received_at LIMIT $3`,
      [olderThanMs, withinMs, limit],
    );
  }

  /** Marks the events applied (each once), in one statement, in the caller's transaction if one is given. */
  async markApplied(ids: readonly string[], sql: SqlExecutor = this.dataSource): Promise<void> {
    await sql.query(`UPDATE payment_events SET applied_at = now() WHERE id = ANY($1::text[]) AND applied_at IS NULL`, [ids]);
  }

  /**
   * Deletes up to `batchSize` applied events received more than `days` ago; resolves with how
   * many. The whole row goes, not only its payload: a provider retries an event for days, not
   * months (Stripe: 3 days), and one arriving after all the same is stored and applied again,
   * which re-reads the object and moves its order only forward. Unapplied events are still owed
   * and stay.
   */
  async deleteAppliedBefore(days: number, batchSize: number): Promise<number> {
    return affectedRows(
      await this.dataSource.query(
        `DELETE FROM payment_events WHERE id IN (
           SELECT id FROM payment_events
            WHERE applied_at IS NOT NULL AND received_at < now() - make_interval(days => $1::int)
            LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [days, batchSize],
      ),
    );
  }

  /** Events are keyed by the provider's event id, not by person: nothing to list, only to scrub. */
  findPerson(): Promise<PersonFindings> {
    return Promise.resolve(nothingFound());
  }

  async erasePerson(erasure: PersonErasure, sql: SqlExecutor): Promise<Record<string, number>> {
    await scrubDocuments(sql, erasure, [{ table: 'payment_events', key: 'id', column: 'payload', json: true }]);
    return {};
  }
}
