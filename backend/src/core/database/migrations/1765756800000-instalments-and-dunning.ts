import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Instalment plans and failed payments. An order of an instalment plan knows how many charges it
 * is (`instalments`), and any order that holds a subscription (a membership's, or the one that
 * charges the later instalments) keeps the provider's last word on it (`subscription_state`), so
 * the order of a one-time plan can still say its instalments are past due or stopped. An invoice
 * the provider failed to charge is noted once (`payment_failures`), so the buyer is told once.
 *
 * The sandbox's records learn what Stripe's hold for the same: a subscription's number of billing
 * periods (an instalment schedule's iterations) and an unpaid invoice's retries (attempts so far, when it first failed, when the next is due).
 */
export class InstalmentsAndDunning1765756800000 implements MigrationInterface {
  name = 'InstalmentsAndDunning1765756800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ADD COLUMN instalments int CHECK (instalments > 1)`);
    await q.query(
      `UPDATE orders SET instalments = CASE plan_id WHEN '6-month' THEN 6 WHEN '2-month' THEN 2 WHEN 'payment-plan' THEN 3 END`,
    );
    await q.query(`ALTER TABLE orders ADD COLUMN subscription_state text`);
    // One row per invoice the provider failed to charge: the buyer is told once, however often it is retried.
    await q.query(`
      CREATE TABLE payment_failures (
        provider_invoice_id text PRIMARY KEY,
        order_id uuid NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER TABLE sandbox_objects ADD COLUMN iterations int CHECK (iterations > 0)`);
    await q.query(`ALTER TABLE sandbox_objects ADD COLUMN attempt_count int NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE sandbox_objects ADD COLUMN first_failed_at timestamptz`);
    await q.query(`ALTER TABLE sandbox_objects ADD COLUMN next_attempt_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const column of ['next_attempt_at', 'first_failed_at', 'attempt_count', 'iterations']) {
      await q.query(`ALTER TABLE sandbox_objects DROP COLUMN ${column}`);
    }
    await q.query(`DROP TABLE payment_failures`);
    await q.query(`ALTER TABLE orders DROP COLUMN subscription_state`);
    await q.query(`ALTER TABLE orders DROP COLUMN instalments`);
  }
}
