import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JOBS } from '@contracts/jobs';
import { OwedJobs } from '../../queue/owe';
import type { SqlExecutor } from '../personal-data';
import { type MembershipBuyer, syncMembership } from './membership.repository';

/**
 * A paid order whose subscription the provider is still retrying: a membership past due, or an
 * instalment plan whose schedule's subscription is. Only such an order's grace can run out.
 */
const STILL_PAST_DUE = `o.paid_at IS NOT NULL AND o.access_revoked_at IS NULL
  AND ((o.kind = 'subscription' AND o.status = 'past_due') OR (o.instalments IS NOT NULL AND o.subscription_state = 'past_due'))`;

/**
 * Forgets an order's unpaid stretch (`past_due_since`, `grace_ended_at`), in the caller's
 * transaction, which holds the order's row lock: its subscription is active again (a payment went
 * through) or has ended otherwise, so a later failure starts a new grace.
 */
export async function clearPastDue(sql: SqlExecutor, orderId: string): Promise<void> {
  await sql.query(
    `UPDATE orders SET past_due_since = NULL, grace_ended_at = NULL
      WHERE id = $1 AND (past_due_since IS NOT NULL OR grace_ended_at IS NOT NULL)`,
    [orderId],
  );
}

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

  clearPastDue(sql: SqlExecutor, orderId: string): Promise<void> {
    return clearPastDue(sql, orderId);
  }

  /**
   * Ends the access of up to `limit` orders still past due whose first failure was at or before
   * `graceStartedBefore` (the provider's now minus the grace), each in its own transaction: the
   * UPDATE takes the row lock and re-checks the order as the lock finds it (a payment applied
   * meanwhile keeps it), the membership moves with it (its `access_ended` webhook owed there) and
   * the buyer is owed the membership-ended e-mail, once per order whoever runs the pass. Resolves
   * with the ids of the orders whose grace ended now.
   */
  async endLapsedGrace(graceStartedBefore: Date, limit: number): Promise<string[]> {
    const candidates: Array<{ id: string }> = await this.dataSource.query(
      `SELECT o.id FROM orders o
        WHERE o.past_due_since IS NOT NULL AND o.grace_ended_at IS NULL AND o.past_due_since <= $1 AND ${STILL_PAST_DUE}
        ORDER BY o.past_due_since LIMIT $2`,
      [graceStartedBefore, limit],
    );
    const ended: string[] = [];
    for (const { id } of candidates) {
      const done = await this.dataSource.transaction(async (manager) => {
        // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
        const [[buyer]]: [MembershipBuyer[], number] = await manager.query(
          `UPDATE orders o SET grace_ended_at = now(), updated_at = now()
            WHERE o.id = $1 AND o.grace_ended_at IS NULL AND o.past_due_since <= $2 AND ${STILL_PAST_DUE}
           RETURNING o.email_normalized, o.plan_id`,
          [id, graceStartedBefore],
        );
        if (!buyer) return false;
        const owed = new OwedJobs();
        owed.add({ name: JOBS.membershipEnded, data: { orderId: id } });
        await syncMembership(manager, id, buyer, owed);
        await owed.flush(manager);
        return true;
      });
      if (done) ended.push(id);
    }
    return ended;
  }
}
