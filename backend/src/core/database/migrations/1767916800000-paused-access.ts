import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A pause also pauses access: from the end of the period paid when the member paused
 * (`orders.paused_from`) until the pause ends, the membership is 'paused' and the members area is
 * told access ended; `orders.access_paused` is whether the pass has applied the pause's start (so
 * each start and end is one access change, whoever runs the pass).
 */
export class PausedAccess1767916800000 implements MigrationInterface {
  name = 'PausedAccess1767916800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ADD COLUMN paused_from timestamptz, ADD COLUMN access_paused boolean NOT NULL DEFAULT false`);
    // The pass reads only orders with a pause.
    await q.query(`CREATE INDEX orders_paused ON orders (paused_from) WHERE paused_until IS NOT NULL`);
    await q.query(`ALTER TABLE memberships DROP CONSTRAINT memberships_status_check`);
    await q.query(`ALTER TABLE memberships ADD CONSTRAINT memberships_status_check CHECK (status IN ('active', 'canceling', 'past_due', 'paused', 'ended'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE memberships SET status = 'active' WHERE status = 'paused'`);
    await q.query(`ALTER TABLE memberships DROP CONSTRAINT memberships_status_check`);
    await q.query(`ALTER TABLE memberships ADD CONSTRAINT memberships_status_check CHECK (status IN ('active', 'canceling', 'past_due', 'ended'))`);
    await q.query(`DROP INDEX orders_paused`);
    await q.query(`ALTER TABLE orders DROP COLUMN paused_from, DROP COLUMN access_paused`);
  }
}
