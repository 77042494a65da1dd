import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Coupons the admin creates (percent or fixed amount off, for some plans, for a subscription's
 * first N months or forever, an expiry and a cap on redemptions, counted in `redeemed`); the
 * coupon an order was charged with; and the sandbox subscription's discounted periods, after
 * which its renewals go back to the full price.
 */
export class Coupons1766361600000 implements MigrationInterface {
  name = 'Coupons1766361600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE coupons (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        code text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9_-]{3,40}$'),
        kind text NOT NULL CHECK (kind IN ('percent', 'fixed')),
        percent_off int CHECK (percent_off BETWEEN 1 AND 100),
        amount_off_cents int CHECK (amount_off_cents > 0),
        plan_ids text[] NOT NULL,
        duration_months int CHECK (duration_months > 0),
        expires_at timestamptz,
        max_redemptions int CHECK (max_redemptions > 0),
        redeemed int NOT NULL DEFAULT 0,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((kind = 'percent') = (percent_off IS NOT NULL) AND (kind = 'fixed') = (amount_off_cents IS NOT NULL)),
        CHECK (max_redemptions IS NULL OR redeemed <= max_redemptions)
      )`);
    await q.query(`ALTER TABLE orders ADD COLUMN coupon_id uuid REFERENCES coupons(id), ADD COLUMN coupon_code text`);
    await q.query(`ALTER TABLE sandbox_objects ADD COLUMN full_amount_cents int, ADD COLUMN discounted_periods int`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_objects DROP COLUMN full_amount_cents, DROP COLUMN discounted_periods`);
    await q.query(`ALTER TABLE orders DROP COLUMN coupon_id, DROP COLUMN coupon_code`);
    await q.query(`DROP TABLE coupons`);
  }
}
