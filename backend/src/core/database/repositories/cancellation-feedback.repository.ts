import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CancellationOutcome, CancelReason } from '@contracts/cancellation';
import type { PersonalDataOwner, PersonErasure, PersonFindings, PersonKey, SqlExecutor, TableColumns } from '../personal-data';
import { affectedRows } from './sql-results';

export const CANCELLATION_FEEDBACK_TABLES: readonly TableColumns[] = [
  {
    table: 'cancellation_feedback',
    // The member's own words: they may name themselves or anyone else.
    personal: ['detail'],
    notPersonal: ['reason', 'outcome'],
  },
];

/** A `cancellation_feedback` row: one answer to the cancellation flow and what came of it. */
export interface CancellationFeedbackRow {
  id: string;
  order_id: string;
  reason: CancelReason | null;
  detail: string | null;
  outcome: CancellationOutcome;
  pause_months: number | null;
  resumes_at: Date | null;
  coupon_id: string | null;
  reminder_owed_at: Date | null;
  created_at: Date;
}

export interface NewCancellationFeedback {
  orderId: string;
  reason: CancelReason | null;
  detail: string | null;
  outcome: CancellationOutcome;
  pauseMonths?: number;
  resumesAt?: Date;
  couponId?: string;
}

/** A pause whose reminder fell due, with the order it pauses. */
export interface DueResumeReminder {
  id: string;
  order_id: string;
  resumes_at: Date;
}

export interface CancellationCount {
  reason: CancelReason | null;
  outcome: CancellationOutcome;
  count: number;
}

export interface CancellationListing extends Pick<CancellationFeedbackRow, 'reason' | 'detail' | 'outcome' | 'pause_months' | 'created_at'> {
  plan_id: string;
}

/** What members answered when they asked to cancel, and what came of it (read by the admin and the revenue dashboard). */
@Injectable()
export class CancellationFeedbackRepository implements PersonalDataOwner {
  readonly tables = CANCELLATION_FEEDBACK_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  async insert(sql: SqlExecutor, row: NewCancellationFeedback): Promise<CancellationFeedbackRow> {
    const [created]: CancellationFeedbackRow[] = await sql.query(
      `INSERT INTO cancellation_feedback (order_id, reason, detail, outcome, pause_months, resumes_at, coupon_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [row.orderId, row.reason, row.detail, row.outcome, row.pauseMonths ?? null, row.resumesAt ?? null, row.couponId ?? null],
    );
    return created;
  }

  /** The stored answer that paused this order until `resumesAt`, if any: the same pause asked twice is one answer. */
  async pauseUntil(sql: SqlExecutor, orderId: string, resumesAt: Date): Promise<string | null> {
    const [row]: Array<{ id: string }> = await sql.query(
      `SELECT id FROM cancellation_feedback WHERE order_id = $1 AND outcome = 'paused' AND resumes_at = $2 LIMIT 1`,
      [orderId, resumesAt],
    );
    return row?.id ?? null;
  }

  /** Whether the buyer of any order under this address has had the save offer's discount: it is offered once per member. */
  async discountTaken(emailNormalized: string, sql: SqlExecutor = this.dataSource): Promise<boolean> {
    const rows: unknown[] = await sql.query(
      `SELECT 1 FROM cancellation_feedback f JOIN orders o ON o.id = f.order_id
        WHERE o.email_normalized = $1 AND f.outcome = 'discounted' LIMIT 1`,
      [emailNormalized],
    );
    return rows.length > 0;
  }

  /**
   * Claims up to `limit` pauses whose reminder is due (`resumes_at` at or before `dueBy`) and not
   * yet owed: stamped owed in the caller's transaction, skipping rows another pass holds, so each
   * reminder is owed once however many workers run the pass.
   */
  claimDueReminders(sql: SqlExecutor, dueBy: Date, limit: number): Promise<DueResumeReminder[]> {
    return sql.query(
      `UPDATE cancellation_feedback f SET reminder_owed_at = now()
        WHERE f.id IN (SELECT id FROM cancellation_feedback
                        WHERE outcome = 'paused' AND reminder_owed_at IS NULL AND resumes_at <= $1
                        ORDER BY resumes_at LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING f.id, f.order_id, f.resumes_at`,
      [dueBy, limit],
    ).then(([rows]: [DueResumeReminder[], number]) => rows);
  }

  /** Answers and outcomes counted, for the admin. */
  counts(): Promise<CancellationCount[]> {
    return this.dataSource.query(
      `SELECT reason, outcome, count(*)::int AS count FROM cancellation_feedback GROUP BY reason, outcome ORDER BY count DESC, reason, outcome`,
    );
  }

  /** The latest answers, newest first. */
  recent(limit: number): Promise<CancellationListing[]> {
    return this.dataSource.query(
      `SELECT f.reason, f.detail, f.outcome, f.pause_months, f.created_at, o.plan_id
         FROM cancellation_feedback f JOIN orders o ON o.id = f.order_id ORDER BY f.created_at DESC, f.id LIMIT $1`,
      [limit],
    );
  }

  /** Clears the free text of up to `batchSize` answers older than `days` (the retention pass); reasons and outcomes stay. */
  async forgetDetailsBefore(days: number, batchSize: number): Promise<number> {
    return affectedRows(
      await this.dataSource.query(
        `UPDATE cancellation_feedback SET detail = NULL WHERE id IN (
           SELECT id FROM cancellation_feedback
            WHERE detail IS NOT NULL AND created_at < now() - make_interval(days => $1::int)
            LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [days, batchSize],
      ),
    );
  }

  /** The person's answers, through their orders (found by the order owner before this one). */
  async findPerson(person: PersonKey, sql: SqlExecutor, forUpdate: boolean): Promise<PersonFindings> {
    const rows: CancellationFeedbackRow[] = await sql.query(
      `SELECT * FROM cancellation_feedback WHERE order_id::text = ANY($1::text[]) ORDER BY created_at${forUpdate ? ' FOR UPDATE' : ''}`,
      [person.ids],
    );
    return {
      sections: {
        cancellationFeedback: rows.map((row) => ({
          orderId: row.order_id,
          reason: row.reason,
          detail: row.detail,
          outcome: row.outcome,
          createdAt: new Date(row.created_at).toISOString(),
        })),
      },
      subjects: rows.map((row) => `cancellation-feedback:${row.id}`),
      emails: [],
      names: [],
    };
  }

  /** The free text goes; the reason and outcome stay (they say nothing about who answered). */
  async erasePerson(erasure: PersonErasure, sql: SqlExecutor): Promise<Record<string, number>> {
    const cancellationFeedback = affectedRows(
      await sql.query(`UPDATE cancellation_feedback SET detail = NULL WHERE order_id::text = ANY($1::text[]) AND detail IS NOT NULL`, [
        erasure.ids,
      ]),
    );
    return { cancellationFeedback };
  }
}
