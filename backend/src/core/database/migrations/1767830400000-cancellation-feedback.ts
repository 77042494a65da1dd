import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The cancellation flow: what a member who asked to cancel answered (a reason, optional free text)
 * and what came of it (canceled, paused for 1–3 months, or the save offer's discount on the next
 * renewal), with the pause's end and when its reminder was owed; the order's pause as the account
 * shows it; which admin coupon is the save offer; and the sandbox subscription's pause and one-off
 * renewal discount, which its clock honours.
 */
export class CancellationFeedback1767830400000 implements MigrationInterface {
  name = 'CancellationFeedback1767830400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE cancellation_feedback (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        order_id uuid NOT NULL REFERENCES orders(id),
        reason text CHECK (reason IN ('too_expensive', 'not_using', 'missing_feature', 'technical_problem', 'other')),
        detail text,
        outcome text NOT NULL CHECK (outcome IN ('canceled', 'paused', 'discounted')),
        pause_months int CHECK (pause_months BETWEEN 1 AND 3),
        resumes_at timestamptz,
        coupon_id uuid REFERENCES coupons(id),
        reminder_owed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((outcome = 'paused') = (pause_months IS NOT NULL AND resumes_at IS NOT NULL)),
        CHECK ((outcome = 'discounted') = (coupon_id IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX cancellation_feedback_order ON cancellation_feedback (order_id)`);
    await q.query(`CREATE INDEX cancellation_feedback_created ON cancellation_feedback (created_at DESC)`);
    // The reminder pass reads only pauses whose reminder is still to be owed.
    await q.query(
      `CREATE INDEX cancellation_feedback_reminders ON cancellation_feedback (resumes_at) WHERE outcome = 'paused' AND reminder_owed_at IS NULL`,
    );
    // The retention pass clears free text past RETENTION_DAYS: only answers still holding some.
    await q.query(`CREATE INDEX cancellation_feedback_details ON cancellation_feedback (created_at) WHERE detail IS NOT NULL`);
    await q.query(`ALTER TABLE orders ADD COLUMN paused_until timestamptz`);
    await q.query(`ALTER TABLE coupons ADD COLUMN save_offer boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE sandbox_objects ADD COLUMN pause_resumes_at timestamptz, ADD COLUMN next_renewal_off_cents int`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_objects DROP COLUMN pause_resumes_at, DROP COLUMN next_renewal_off_cents`);
    await q.query(`ALTER TABLE coupons DROP COLUMN save_offer`);
    await q.query(`ALTER TABLE orders DROP COLUMN paused_until`);
    await q.query(`DROP TABLE cancellation_feedback`);
  }
}
