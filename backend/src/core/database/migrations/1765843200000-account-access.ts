import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The buyer's self-service account without passwords: single-use sign-in links e-mailed to a
 * buyer's address and the short sessions they open (only SHA-256 hashes of both are stored), and
 * on each order the subscription's cancel-at-period-end flag and current period end, kept by the
 * account page's own changes and by `customer.subscription.updated` webhooks (Stripe's Billing
 * Portal). The sandbox records the flag on its subscription, as Stripe does.
 */
export class AccountAccess1765843200000 implements MigrationInterface {
  name = 'AccountAccess1765843200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE account_link_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash text NOT NULL UNIQUE,
        email_normalized text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX account_link_tokens_email_idx ON account_link_tokens (email_normalized)`);
    await q.query(`
      CREATE TABLE account_sessions (
        id_hash text PRIMARY KEY,
        email_normalized text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX account_sessions_email_idx ON account_sessions (email_normalized)`);
    await q.query(`ALTER TABLE orders ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE orders ADD COLUMN current_period_end timestamptz`);
    await q.query(`ALTER TABLE sandbox_objects ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_objects DROP COLUMN cancel_at_period_end`);
    await q.query(`ALTER TABLE orders DROP COLUMN current_period_end`);
    await q.query(`ALTER TABLE orders DROP COLUMN cancel_at_period_end`);
    await q.query(`DROP TABLE account_sessions`);
    await q.query(`DROP TABLE account_link_tokens`);
  }
}
