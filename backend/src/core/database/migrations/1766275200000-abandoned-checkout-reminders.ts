import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The abandoned-checkout reminder: outbox rows may be owed for later (`available_at`, relayed at
 * once as a BullMQ delayed job; the row stays the source of truth), addresses that unsubscribed
 * from marketing e-mail, and an index for the funnel dashboard's count of reminders sent.
 */
export class AbandonedCheckoutReminders1766275200000 implements MigrationInterface {
  name = 'AbandonedCheckoutReminders1766275200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ADD COLUMN available_at timestamptz`);
    await q.query(`
      CREATE TABLE email_suppressions (
        email_normalized text PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_side_effects_abandoned_checkout ON side_effects (finished_at) WHERE kind = 'abandoned-checkout-email' AND status = 'done'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_side_effects_abandoned_checkout`);
    await q.query(`DROP TABLE email_suppressions`);
    await q.query(`ALTER TABLE outbox DROP COLUMN available_at`);
  }
}
