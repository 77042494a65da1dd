import { Injectable } from '@nestjs/common';
import type { SqlExecutor } from '../personal-data';
import type { MembershipBuyer } from './membership.repository';
import {
  LOCKED_COLUMNS,
  type LockedOrder,
  type OrderIdColumn,
  orderIdOf,
  type OrderLookup,
  type OrderRow,
  type OrderStatus,
  type ProviderIds,
  type SubscriptionTermsUpdate,
} from './order-rows';
import { affectedRows } from './sql-results';

/**
 * The statements the order lifecycle (core/orders/order-lifecycle.ts) runs on `orders` in its
 * own transactions, each given that transaction: SQL only, what to run is decided there.
 */
@Injectable()
export class OrderLifecycleRepository {
  /**
   * Locks and reads an order: by id, or as found by a provider object it holds (in the same
   * statement). `applying`: stored payment events the transaction applies, marked applied in that
   * statement too (whether or not there is an order), so they count as applied exactly when the
   * transaction commits.
   */
  async lock(sql: SqlExecutor, order: string | OrderLookup, applying: readonly string[] = []): Promise<LockedOrder | null> {
    const [where, params]: [string, unknown[]] =
      typeof order === 'string'
        ? ['id = $1', [order]]
        : [`id = (SELECT id FROM (${orderIdOf(order.column)}) found)`, [order.objectId, order.orderRef ?? null]];
    const marking = applying.length
      ? `WITH applied AS (
           UPDATE payment_events SET applied_at = now() WHERE id = ANY($${params.length + 1}::text[]) AND applied_at IS NULL
         ) `
      : '';
    const [row]: LockedOrder[] = await sql.query(
      `${marking}SELECT ${LOCKED_COLUMNS} FROM orders WHERE ${where} FOR UPDATE`,
      applying.length ? [...params, applying] : params,
    );
    return row ?? null;
  }

  /**
   * Stamps the order as read by the provider now, unless someone did within `intervalMs`, and reads
   * what `LockedOrder` holds, in one statement: the row as the claim left it, or null when someone
   * else has the claim (or there is no such order). In a transaction the stamp's UPDATE also holds
   * the row lock until it ends, which every other locker of the order waits for (and an UPDATE
   * waiting on it sees the stamp once it may go on).
   */
  async claimRead(sql: SqlExecutor, orderId: string, intervalMs: number): Promise<LockedOrder | null> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [[row]]: [LockedOrder[], number] = await sql.query(
      `UPDATE orders SET last_refreshed_at = now()
        WHERE id = $1 AND (last_refreshed_at IS NULL OR last_refreshed_at < now() - make_interval(secs => $2::float8 / 1000))
       RETURNING ${LOCKED_COLUMNS}`,
      [orderId, intervalMs],
    );
    return row ?? null;
  }

  /** Stores a provider object's id on an order that has none of its kind. */
  async setIdIfMissing(sql: SqlExecutor, orderId: string, column: OrderIdColumn, objectId: string): Promise<void> {
    await sql.query(`UPDATE orders SET ${column} = $2 WHERE id = $1 AND ${column} IS NULL`, [orderId, objectId]);
  }

  /**
   * Sets the order's status; `firstPaid`: it is paid for the first time now, so paid_at is set and
   * its first payment recorded in the same statement: the order's own charge (its charge's id,
   * else its subscription's), from the row as updated. Never under an id of ours: an order paid
   * before it holds either id fails the statement (provider_payment_id is NOT NULL), so the caller
   * retries rather than record a payment no refund or dispute could find. Resolves with paid_at.
   */
  async setStatus(sql: SqlExecutor, orderId: string, status: OrderStatus, firstPaid: boolean): Promise<Date | null> {
    const [updated]: Array<Pick<OrderRow, 'paid_at'>> = await sql.query(
      `WITH updated AS (
         UPDATE orders SET status = $2, paid_at = CASE WHEN $3 THEN now() ELSE paid_at END, updated_at = now() WHERE id = $1
         RETURNING id, paid_at, payment_intent_id, subscription_id, amount_cents, currency
       ), first_payment AS (
         INSERT INTO payments (order_id, provider_payment_id, sequence, amount_cents, currency, paid_at)
         SELECT id, COALESCE(payment_intent_id, subscription_id), 1, amount_cents, currency, paid_at FROM updated WHERE $3
         ON CONFLICT DO NOTHING
       )
       SELECT paid_at FROM updated`,
      [orderId, status, firstPaid],
    );
    return updated.paid_at;
  }

  /** Stores a subscription just created for the order: its ids, and its state when the order holds none yet. */
  async setSubscription(
    sql: SqlExecutor,
    orderId: string,
    ids: Required<Pick<ProviderIds, 'subscription_id' | 'customer_id'>> & Pick<ProviderIds, 'payment_method_id'>,
    state: string | null,
  ): Promise<void> {
    await sql.query(
      `UPDATE orders SET subscription_id = $2, customer_id = $3, payment_method_id = COALESCE($4, payment_method_id),
              subscription_state = COALESCE(subscription_state, $5), updated_at = now()
        WHERE id = $1`,
      [orderId, ids.subscription_id, ids.customer_id, ids.payment_method_id ?? null, state],
    );
  }

  /** Stores the provider's word on the order's subscription. */
  async setSubscriptionState(sql: SqlExecutor, orderId: string, state: string): Promise<void> {
    await sql.query(`UPDATE orders SET subscription_state = $2, updated_at = now() WHERE id = $1`, [orderId, state]);
  }

  /** Locks the order and reads what its subscription's terms were (undefined: no such order). */
  async lockTerms(sql: SqlExecutor, orderId: string): Promise<Pick<OrderRow, 'cancel_at_period_end' | 'status'> | undefined> {
    const [before]: Array<Pick<OrderRow, 'cancel_at_period_end' | 'status'>> = await sql.query(
      `SELECT cancel_at_period_end, status FROM orders WHERE id = $1 FOR UPDATE`,
      [orderId],
    );
    return before;
  }

  /** Stores the subscription's terms; true when they changed. */
  async setTerms(sql: SqlExecutor, orderId: string, terms: SubscriptionTermsUpdate): Promise<boolean> {
    const result: unknown = await sql.query(
      `UPDATE orders SET cancel_at_period_end = $2, current_period_end = $3, updated_at = now()
        WHERE id = $1 AND (cancel_at_period_end, current_period_end) IS DISTINCT FROM ($2, $3::timestamptz)`,
      [orderId, terms.cancelAtPeriodEnd, terms.currentPeriodEnd],
    );
    return affectedRows(result) === 1;
  }

  /** The member's pause from the cancellation flow: from the end of the paid period (`from`) nothing is charged and there is no access until `until`. */
  async setPause(sql: SqlExecutor, orderId: string, from: Date, until: Date): Promise<void> {
    await sql.query(`UPDATE orders SET paused_from = $2, paused_until = $3, updated_at = now() WHERE id = $1`, [orderId, from, until]);
  }

  /** A payment at `paidAt` after the order's pause ended: its access is no longer paused. */
  async pauseOverBy(sql: SqlExecutor, orderId: string, paidAt: Date): Promise<void> {
    await sql.query(`UPDATE orders SET access_paused = false, updated_at = now() WHERE id = $1 AND access_paused AND paused_until <= $2`, [orderId, paidAt]);
  }

  /**
   * Up to `limit` orders whose pause has begun or ended by `now` (the provider's clock) and whose
   * access does not show it yet, locked (others running the pass skip them), each with its
   * `access_paused` turned over: true when the pause has begun, false when it is over.
   */
  async turnPausedAccess(sql: SqlExecutor, now: Date, limit: number): Promise<string[]> {
    const [rows]: [Array<{ id: string }>, number] = await sql.query(
      `UPDATE orders SET access_paused = NOT access_paused, updated_at = now()
        WHERE id IN (
          SELECT id FROM orders
           WHERE paused_until IS NOT NULL
             AND ((NOT access_paused AND paused_from <= $1 AND paused_until > $1) OR (access_paused AND paused_until <= $1))
           ORDER BY paused_from LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [now, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Ends the order's access (orders.access_revoked_at); true when it ended now, not before. */
  async revokeAccess(sql: SqlExecutor, orderId: string): Promise<boolean> {
    const result: unknown = await sql.query(
      `UPDATE orders SET access_revoked_at = now(), updated_at = now() WHERE id = $1 AND access_revoked_at IS NULL`,
      [orderId],
    );
    return affectedRows(result) === 1;
  }

  /** Adds a succeeded refund to the order's refunded total. */
  async addRefunded(sql: SqlExecutor, orderId: string, amountCents: number): Promise<void> {
    await sql.query(`UPDATE orders SET refunded_cents = refunded_cents + $2, updated_at = now() WHERE id = $1`, [orderId, amountCents]);
  }

  /** Where the order's latest dispute stands. */
  async setDisputeStatus(sql: SqlExecutor, orderId: string, status: string): Promise<void> {
    await sql.query(`UPDATE orders SET dispute_status = $2, updated_at = now() WHERE id = $1`, [orderId, status]);
  }

  /** Whose membership the order decides: its address and plan (undefined: no such order). */
  async buyerOf(sql: SqlExecutor, orderId: string): Promise<MembershipBuyer | undefined> {
    const [buyer]: MembershipBuyer[] = await sql.query(`SELECT email_normalized, plan_id FROM orders WHERE id = $1`, [orderId]);
    return buyer;
  }

  /** Gives up the order's claim on its buyer's one membership of the plan (OrderRepository.claimMembership). */
  async releaseClaim(sql: SqlExecutor, orderId: string): Promise<void> {
    await sql.query(`UPDATE orders SET membership_claimed_at = NULL WHERE id = $1 AND membership_claimed_at IS NOT NULL`, [orderId]);
  }

  /** Locks an instalment plan's order for a stop, with how many payments it has had (undefined: no such order). */
  async lockForStop(
    sql: SqlExecutor,
    orderId: string,
  ): Promise<(Pick<OrderRow, 'instalments' | 'paid_at' | 'access_revoked_at' | 'instalments_stopped_at'> & { paid: number }) | undefined> {
    const [order]: Array<Pick<OrderRow, 'instalments' | 'paid_at' | 'access_revoked_at' | 'instalments_stopped_at'> & { paid: number }> =
      await sql.query(
        `SELECT instalments, paid_at, access_revoked_at, instalments_stopped_at,
                (SELECT count(*)::int FROM payments p WHERE p.order_id = o.id) AS paid
           FROM orders o WHERE o.id = $1 FOR UPDATE OF o`,
        [orderId],
      );
    return order;
  }

  /** Marks the plan stopped now; resolves with when. */
  async markInstalmentsStopped(sql: SqlExecutor, orderId: string): Promise<Date> {
    const [[stopped]]: [Array<{ instalments_stopped_at: Date }>, number] = await sql.query(
      `UPDATE orders SET instalments_stopped_at = now(), updated_at = now() WHERE id = $1 RETURNING instalments_stopped_at`,
      [orderId],
    );
    return stopped.instalments_stopped_at;
  }

  /**
   * A stopped plan's schedule canceled before it started the subscription that charges it: the
   * plan's charging has ended as if that subscription had been canceled (subscription_state), so
   * its access follows the same rule. True when this ended it now; false when the order holds a
   * subscription (its own events say how it ended) or was ended before.
   */
  async endUnstartedSchedule(sql: SqlExecutor, orderId: string): Promise<boolean> {
    const result: unknown = await sql.query(
      `UPDATE orders SET subscription_state = 'canceled', updated_at = now()
        WHERE id = $1 AND instalments_stopped_at IS NOT NULL AND subscription_id IS NULL AND subscription_state IS NULL`,
      [orderId],
    );
    return affectedRows(result) === 1;
  }

  /** The customers the provider holds for the address (each provider's, once). */
  async customersOf(sql: SqlExecutor, emailNormalized: string): Promise<Array<Pick<OrderRow, 'provider'> & { customer_id: string }>> {
    return sql.query(
      `SELECT DISTINCT provider, customer_id FROM orders
        WHERE email_normalized = $1 AND customer_id IS NOT NULL ORDER BY provider, customer_id`,
      [emailNormalized],
    );
  }

  /** Marks the address's paid instalment plans not stopped yet as stopped now; resolves with their ids. */
  async stopPlansOf(sql: SqlExecutor, emailNormalized: string): Promise<string[]> {
    const [plans]: [Array<Pick<OrderRow, 'id'>>, number] = await sql.query(
      `UPDATE orders SET instalments_stopped_at = now()
        WHERE email_normalized = $1 AND instalments IS NOT NULL AND paid_at IS NOT NULL AND instalments_stopped_at IS NULL
        RETURNING id`,
      [emailNormalized],
    );
    return plans.map(({ id }) => id);
  }
}
