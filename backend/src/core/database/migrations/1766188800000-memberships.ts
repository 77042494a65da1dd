import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One membership per buyer (normalised e-mail) and product: whether they may enter its members
 * area (active, canceling, past_due) or not any more (ended), decided from their paid orders of
 * that product, and how many times access was granted or ended (each change is told once to the
 * members area by the membership webhook). Paid orders made before this migration get theirs.
 */
export class Memberships1766188800000 implements MigrationInterface {
  name = 'Memberships1766188800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE memberships (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email_normalized text NOT NULL,
        product text NOT NULL CHECK (product IN ('clear', 'elite', 'blackcard')),
        status text NOT NULL CHECK (status IN ('active', 'canceling', 'past_due', 'ended')),
        order_id uuid REFERENCES orders(id) ON DELETE SET NULL,
        access_changes int NOT NULL DEFAULT 1,
        granted_at timestamptz NOT NULL DEFAULT now(),
        ended_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (email_normalized, product)
      )`);
    await q.query(`CREATE INDEX ix_memberships_status ON memberships (status, updated_at DESC)`);
    // The backfill: each buyer's newest paid order per product, active (paid orders before this
    // migration had no later state the lifecycle tracks, beyond a subscription's status).
    await q.query(`
      INSERT INTO memberships (email_normalized, product, status, order_id, granted_at, ended_at)
      SELECT DISTINCT ON (email_normalized, product) email_normalized, product,
             CASE WHEN kind = 'subscription' AND status = 'canceled' THEN 'ended'
                  WHEN kind = 'subscription' AND status = 'past_due' THEN 'past_due' ELSE 'active' END,
             id, paid_at, CASE WHEN kind = 'subscription' AND status = 'canceled' THEN updated_at END
        FROM (SELECT o.*, CASE WHEN plan_id = 'premium' THEN 'elite' WHEN plan_id = 'blackcard-vip' THEN 'blackcard' ELSE 'clear' END AS product
                FROM orders o WHERE paid_at IS NOT NULL) paid
       ORDER BY email_normalized, product, paid_at DESC`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE memberships`);
  }
}
