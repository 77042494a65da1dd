import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { JOBS } from '@contracts/jobs';
import type { PaymentKind } from '@contracts/plans';
import type { OrderRow, OrderStatus } from './order-rows';

/**
 * A paid order (paid between $3 and $2 ms ago) with a paid effect of $1 neither finished in the
 * ledger nor skipped on purpose (not configured, no referral), and no `order-paid` job ($4) that
 * is still open or gave up (that one waits for an admin's retry).
 */
const MISSING_PAID_EFFECTS = `o.paid_at IS NOT NULL
  AND o.paid_at < now() - make_interval(secs => $2::float8 / 1000)
  AND o.paid_at > now() - make_interval(secs => $3::float8 / 1000)
  AND EXISTS (
    SELECT 1 FROM unnest($1::text[]) AS k(kind)
     WHERE COALESCE(o.paid_effects ->> k.kind, '') NOT LIKE 'skipped%'
       AND NOT EXISTS (SELECT 1 FROM side_effects s WHERE s.key = k.kind || ':' || o.id AND s.status <> 'claimed'))
  AND NOT EXISTS (
    SELECT 1 FROM outbox x WHERE x.job_name = $4 AND x.completed_at IS NULL AND x.payload ->> 'orderId' = o.id::text)`;

/** What the worker's reconciler claims of orders: those to re-read from the provider, and paid effects to owe again. */
@Injectable()
export class OrderReconcileRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims the right to read the provider for this order now: true for one caller per
   * `intervalMs`, across every API instance (the row is the lock).
   */
  async claimRefresh(orderId: string, intervalMs: number): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [rows]: [unknown[], number] = await this.dataSource.query(
      `UPDATE orders SET last_refreshed_at = now()
        WHERE id = $1 AND (last_refreshed_at IS NULL OR last_refreshed_at < now() - make_interval(secs => $2::float8 / 1000))
       RETURNING id`,
      [orderId, intervalMs],
    );
    return rows.length > 0;
  }

  /**
   * Claims up to `limit` orders for the reconciler to re-read from the provider: not settled
   * `olderThanMs` after they were created (within the last `withinMs`), holding a provider
   * object, and not read by anyone (reconciler or verification) in the last `claimMs`. The claim
   * is the read stamp itself, so concurrent reconcilers (SKIP LOCKED) take disjoint orders and an
   * order is read at most once per `claimMs`. `settled`: the statuses of each kind no provider
   * read changes any more (the lifecycle's SETTLED_STATUSES).
   */
  claimUnsettled(
    olderThanMs: number,
    withinMs: number,
    claimMs: number,
    limit: number,
    settled: Readonly<Record<PaymentKind, readonly OrderStatus[]>>,
  ): Promise<Array<Pick<OrderRow, 'id' | 'kind' | 'payment_intent_id' | 'setup_intent_id' | 'subscription_id'>>> {
    return this.dataSource
      .query<[Array<Pick<OrderRow, 'id' | 'kind' | 'payment_intent_id' | 'setup_intent_id' | 'subscription_id'>>, number]>(
        `UPDATE orders o SET last_refreshed_at = now()
          WHERE o.id IN (
            SELECT id FROM orders
             WHERE created_at < now() - make_interval(secs => $1::float8 / 1000)
               AND created_at > now() - make_interval(secs => $2::float8 / 1000)
               AND NOT (status = ANY(CASE kind WHEN 'subscription' THEN $4::text[] ELSE $5::text[] END))
               AND (payment_intent_id IS NOT NULL OR setup_intent_id IS NOT NULL OR subscription_id IS NOT NULL)
               AND (last_refreshed_at IS NULL OR last_refreshed_at < now() - make_interval(secs => $3::float8 / 1000))
             ORDER BY last_refreshed_at NULLS FIRST, created_at
             LIMIT $6
             FOR UPDATE SKIP LOCKED)
         RETURNING o.id, o.kind, o.payment_intent_id, o.setup_intent_id, o.subscription_id`,
        [olderThanMs, withinMs, claimMs, settled.subscription, settled['one-time'], limit],
      )
      .then(([rows]) => rows);
  }

  /**
   * Owes `order-paid` again for paid orders (paid `olderThanMs` ago, within the last `withinMs`)
   * with a paid effect of `kinds` missing from the side_effects ledger (never finished, and not
   * skipped on purpose) while no `order-paid` job of theirs is open or waiting for an admin's
   * retry. The job calls only what is missing: finished keys replay from the ledger. Each order is
   * decided and owed under its row lock, so two reconcilers never owe it twice: `oweOrderPaid`
   * writes the job in that transaction (the outbox's `owe` sits above the repositories). Resolves
   * with the ids of the orders owed now.
   */
  async reowePaidEffects(
    kinds: readonly string[],
    olderThanMs: number,
    withinMs: number,
    limit: number,
    oweOrderPaid: (manager: EntityManager, orderId: string) => Promise<unknown>,
  ): Promise<string[]> {
    const params = [kinds, olderThanMs, withinMs, JOBS.orderPaid];
    const candidates: Array<Pick<OrderRow, 'id'>> = await this.dataSource.query(
      `SELECT o.id FROM orders o WHERE ${MISSING_PAID_EFFECTS} ORDER BY o.paid_at LIMIT $5`,
      [...params, limit],
    );
    const owed: string[] = [];
    for (const { id } of candidates) {
      const owes = await this.dataSource.transaction(async (manager) => {
        await manager.query(`SELECT 1 FROM orders WHERE id = $1 FOR UPDATE`, [id]);
        // A statement of its own after the lock: it sees what a reconciler that held the lock before committed.
        const still: unknown[] = await manager.query(`SELECT 1 FROM orders o WHERE o.id = $5 AND ${MISSING_PAID_EFFECTS}`, [...params, id]);
        if (still.length === 0) return false;
        await oweOrderPaid(manager, id);
        return true;
      });
      if (owes) owed.push(id);
    }
    return owed;
  }
}
