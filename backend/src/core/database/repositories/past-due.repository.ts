import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SqlExecutor } from '../personal-data';
import type { MembershipBuyer } from './membership.repository';

/**
 * A paid order whose subscription the provider is still retrying: a membership past due, or an
 * instalment plan whose schedule's subscription is. Only such an order's grace can run out.
 */
const STILL_PAST_DUE = `o.paid_at IS NOT NULL AND o.access_revoked_at IS NULL
  AND ((o.kind = 'subscription' AND o.status = 'past_due') OR (o.instalments IS NOT NULL AND o.subscription_state = 'past_due'))`;

/**
 * The grace of past-due orders (`orders.past_due_since`, `orders.grace_ended_at`): how long a
 * member whose renewal or instalment failed keeps access while the provider retries it.
 * `ORDER_ACCESS` (membership.repository.ts) ends a past-due order's access once its grace has
 * ended; a payment that makes its subscription active again clears both and gives access back.
 */
@Injectable()
export class PastDueRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Notes, in the caller's transaction (which holds the order's row lock), that the order's
   * subscription went past due at `since` (the provider's time of the failed charge), unless an
   * unpaid stretch is already noted: the grace counts from its first failure, not from each retry.
   */
  async markPastDue(sql: SqlExecutor, orderId: string, since: Date): Promise<void> {
    await sql.query(`UPDATE orders SET past_due_since = $2, grace_ended_at = NULL WHERE id = $1 AND past_due_since IS NULL`, [
      orderId,
      since,
    ]);
  }

  /**
   * Forgets an order's unpaid stretch (`past_due_since`, `grace_ended_at`), in the caller's
   * transaction, which holds the order's row lock: its subscription is active again (a payment went
   * through) or has ended otherwise, so a later failure starts a new grace.
   */
  async clearPastDue(sql: SqlExecutor, orderId: string): Promise<void> {
    await sql.query(
      `UPDATE orders SET past_due_since = NULL, grace_ended_at = NULL
        WHERE id = $1 AND (past_due_since IS NOT NULL OR grace_ended_at IS NOT NULL)`,
      [orderId],
    );
  }

  /** Up to `limit` orders still past due whose first failure was at or before `graceStartedBefore`, first failed first. */
  async lapsedGrace(graceStartedBefore: Date, limit: number): Promise<string[]> {
    const candidates: Array<{ id: string }> = await this.dataSource.query(
      `SELECT o.id FROM orders o
        WHERE o.past_due_since IS NOT NULL AND o.grace_ended_at IS NULL AND o.past_due_since <= $1 AND ${STILL_PAST_DUE}
        ORDER BY o.past_due_since LIMIT $2`,
      [graceStartedBefore, limit],
    );
    return candidates.map(({ id }) => id);
  }

  /**
   * Ends the order's grace, in the caller's transaction: the UPDATE takes the row lock and
   * re-checks the order as the lock finds it (a payment applied meanwhile keeps it). Resolves with
   * whose membership it decides, or null when its grace did not end now.
   */
  async endGrace(sql: SqlExecutor, orderId: string, graceStartedBefore: Date): Promise<MembershipBuyer | null> {
    // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
    const [[buyer]]: [MembershipBuyer[], number] = await sql.query(
      `UPDATE orders o SET grace_ended_at = now(), updated_at = now()
        WHERE o.id = $1 AND o.grace_ended_at IS NULL AND o.past_due_since <= $2 AND ${STILL_PAST_DUE}
       RETURNING o.email_normalized, o.plan_id`,
      [orderId, graceStartedBefore],
    );
    return buyer ?? null;
  }
}
