import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether an order moves real money: false for the sandbox and for Stripe's test mode. Test
 * orders never reach the affiliate service, Meta or GA4 as sales, and the dashboard counts their
 * revenue apart. Orders made before this migration were made with whichever provider they name;
 * only Stripe ones can have been live, and which of those were cannot be told here, so they stay
 * counted as before.
 */
export class OrderLivemode1765497600000 implements MigrationInterface {
  name = 'OrderLivemode1765497600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ADD COLUMN livemode boolean`);
    await q.query(`UPDATE orders SET livemode = (provider = 'stripe')`);
    // An order nobody said was live is a test order: a missing value never makes a sale.
    await q.query(`ALTER TABLE orders ALTER COLUMN livemode SET DEFAULT false, ALTER COLUMN livemode SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders DROP COLUMN livemode`);
  }
}
