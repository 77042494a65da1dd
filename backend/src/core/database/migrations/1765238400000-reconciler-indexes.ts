import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the payment reconciler and the admin's list of jobs that gave up look for, each a small
 * partial index: unapplied webhook events by arrival, orders by creation and by payment, the
 * `order-paid` jobs not done yet by order, and the outbox rows that gave up.
 */
export class ReconcilerIndexes1765238400000 implements MigrationInterface {
  name = 'ReconcilerIndexes1765238400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX ix_payment_events_unapplied ON payment_events (received_at) WHERE applied_at IS NULL`);
    await q.query(`CREATE INDEX ix_orders_created ON orders (created_at)`);
    await q.query(`CREATE INDEX ix_orders_paid ON orders (paid_at) WHERE paid_at IS NOT NULL`);
    await q.query(
      `CREATE INDEX ix_outbox_order_paid_unfinished ON outbox ((payload ->> 'orderId')) WHERE job_name = 'order-paid' AND completed_at IS NULL`,
    );
    await q.query(`CREATE INDEX ix_outbox_exhausted ON outbox (failed_at) WHERE failed_at IS NOT NULL AND completed_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of [
      'ix_outbox_exhausted',
      'ix_outbox_order_paid_unfinished',
      'ix_orders_paid',
      'ix_orders_created',
      'ix_payment_events_unapplied',
    ]) {
      await q.query(`DROP INDEX ${index}`);
    }
  }
}
