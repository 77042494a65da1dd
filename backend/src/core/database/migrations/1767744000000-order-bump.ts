import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The order bump (site.json offers.bump): which add-on the checkout offered (so the dashboard's take
 * rate counts only orders that saw it) and, when the buyer ticked it, what it charged with the
 * first payment (included in amount_cents, which stays the first charge's whole amount).
 */
export class OrderBump1767744000000 implements MigrationInterface {
  name = 'OrderBump1767744000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ADD COLUMN bump_plan_id text, ADD COLUMN bump_amount_cents integer`);
    await q.query(
      `ALTER TABLE orders ADD CONSTRAINT orders_bump_check
         CHECK (bump_amount_cents IS NULL OR (bump_plan_id IS NOT NULL AND bump_amount_cents > 0 AND bump_amount_cents < amount_cents))`,
    );
    // The sandbox's subscription charges it on its first invoice only, as Stripe's add_invoice_items.
    await q.query(`ALTER TABLE sandbox_objects ADD COLUMN invoice_item_cents integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_objects DROP COLUMN invoice_item_cents`);
    await q.query(`ALTER TABLE orders DROP CONSTRAINT orders_bump_check`);
    await q.query(`ALTER TABLE orders DROP COLUMN bump_amount_cents, DROP COLUMN bump_plan_id`);
  }
}
