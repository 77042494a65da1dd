import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An instalment plan that can be stopped. `orders.instalment_schedule_id`: the provider's schedule
 * of the plan's later charges (Stripe's `sub_sched_…`, which has no subscription until the second
 * charge falls due), so a refund, a lost dispute, an erasure or the admin can cancel it.
 * `orders.instalments_stopped_at`: when the admin or an erasure stopped the plan; a schedule is
 * never made for such an order. Existing plans take their schedule's id from the ledger's record
 * of its creation.
 */
export class InstalmentStops1766707200000 implements MigrationInterface {
  name = 'InstalmentStops1766707200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ADD COLUMN instalment_schedule_id text, ADD COLUMN instalments_stopped_at timestamptz`);
    await q.query(`
      UPDATE orders o SET instalment_schedule_id = s.detail->>'scheduleId'
        FROM side_effects s
       WHERE s.key = 'instalment-schedule:' || o.id::text AND s.detail ? 'scheduleId' AND o.instalments IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders DROP COLUMN instalments_stopped_at, DROP COLUMN instalment_schedule_id`);
  }
}
