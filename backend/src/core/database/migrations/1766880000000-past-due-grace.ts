import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dunning ends access. `orders.status` may be `unpaid`: the provider stopped retrying a failed
 * charge and keeps the subscription unpaid (Stripe's 'mark the subscription as unpaid'), which
 * ends access until a payment makes it active again. `orders.past_due_since`: when the provider
 * first failed to charge the order's subscription (in the provider's time), cleared when it is
 * paid again; `orders.grace_ended_at`: when a past-due order's grace (PAST_DUE_GRACE_DAYS after
 * that failure) ran out and its access ended, cleared with it. The reconciler looks for past-due
 * orders whose grace has run out through the partial index. Orders past due already get their
 * grace from the migration on.
 */
export class PastDueGrace1766880000000 implements MigrationInterface {
  name = 'PastDueGrace1766880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders DROP CONSTRAINT orders_status_check`);
    await q.query(`ALTER TABLE orders ADD CONSTRAINT orders_status_check CHECK (status IN
      ('created', 'requires_action', 'processing', 'succeeded', 'failed', 'canceled', 'incomplete', 'active', 'past_due', 'unpaid'))`);
    await q.query(`ALTER TABLE orders ADD COLUMN past_due_since timestamptz, ADD COLUMN grace_ended_at timestamptz`);
    // Orders already past due get their grace from now: when their charge first failed was not kept.
    await q.query(`UPDATE orders SET past_due_since = now()
      WHERE paid_at IS NOT NULL AND ((kind = 'subscription' AND status = 'past_due') OR (instalments IS NOT NULL AND subscription_state = 'past_due'))`);
    await q.query(
      `CREATE INDEX orders_past_due_grace_idx ON orders (past_due_since) WHERE past_due_since IS NOT NULL AND grace_ended_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX orders_past_due_grace_idx`);
    await q.query(`ALTER TABLE orders DROP COLUMN past_due_since, DROP COLUMN grace_ended_at`);
    // An unpaid order was past due before this migration knew the difference.
    await q.query(`UPDATE orders SET status = 'past_due' WHERE status = 'unpaid'`);
    await q.query(`ALTER TABLE orders DROP CONSTRAINT orders_status_check`);
    await q.query(`ALTER TABLE orders ADD CONSTRAINT orders_status_check CHECK (status IN
      ('created', 'requires_action', 'processing', 'succeeded', 'failed', 'canceled', 'incomplete', 'active', 'past_due'))`);
  }
}
