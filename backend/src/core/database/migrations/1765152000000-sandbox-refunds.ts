import { MigrationInterface, QueryRunner } from 'typeorm';

/** The payment sandbox keeps refunds beside its intents and subscriptions, as Stripe keeps refund objects. */
export class SandboxRefunds1765152000000 implements MigrationInterface {
  name = 'SandboxRefunds1765152000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_objects DROP CONSTRAINT sandbox_objects_object_check`);
    await q.query(
      `ALTER TABLE sandbox_objects ADD CONSTRAINT sandbox_objects_object_check CHECK (object IN ('payment_intent', 'setup_intent', 'subscription', 'refund'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sandbox_objects WHERE object = 'refund'`);
    await q.query(`ALTER TABLE sandbox_objects DROP CONSTRAINT sandbox_objects_object_check`);
    await q.query(
      `ALTER TABLE sandbox_objects ADD CONSTRAINT sandbox_objects_object_check CHECK (object IN ('payment_intent', 'setup_intent', 'subscription'))`,
    );
  }
}
