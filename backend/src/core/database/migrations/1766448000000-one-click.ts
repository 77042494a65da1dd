import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One-click upgrades: an order paid with the card saved by an earlier order of the same browser
 * names that order. One such order per (earlier order, plan): a double click or a reload finds
 * the order (and through its idempotency key, the charge) made the first time.
 */
export class OneClick1766448000000 implements MigrationInterface {
  name = 'OneClick1766448000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ADD COLUMN one_click_source_id uuid REFERENCES orders(id) ON DELETE SET NULL`);
    await q.query(`CREATE UNIQUE INDEX ux_orders_one_click ON orders (one_click_source_id, plan_id) WHERE one_click_source_id IS NOT NULL`);
    // The browser's recent paid order, looked up by its buyer key on every one-click offer.
    await q.query(`CREATE INDEX ix_orders_buyer_paid ON orders (buyer_key_hash, paid_at DESC) WHERE buyer_key_hash IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_orders_buyer_paid`);
    await q.query(`DROP INDEX ux_orders_one_click`);
    await q.query(`ALTER TABLE orders DROP COLUMN one_click_source_id`);
  }
}
