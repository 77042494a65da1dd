import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A coupon's redemptions are counted from its orders (paid ones, and unpaid ones younger than
 * COUPON_HOLD_MINUTES) rather than read from `coupons.redeemed`, a counter that only grew: this
 * index serves that count. The counter stays, still moved as before, for the previous release
 * during a rolling upgrade or after a rollback.
 */
export class CouponHolds1767312000000 implements MigrationInterface {
  name = 'CouponHolds1767312000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX ix_orders_coupon ON orders (coupon_id, created_at) WHERE coupon_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_orders_coupon`);
  }
}
