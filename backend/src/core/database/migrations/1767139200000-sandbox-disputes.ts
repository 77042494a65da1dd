import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The payment sandbox keeps disputes beside its charges and refunds, as Stripe keeps dispute
 * objects: a charge of test card 4000 0000 0000 0259 is disputed, and test evidence decides it.
 * A dispute names the payment it takes back in `refunded_id`, as a refund does.
 */
export class SandboxDisputes1767139200000 implements MigrationInterface {
  name = 'SandboxDisputes1767139200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_objects DROP CONSTRAINT sandbox_objects_object_check`);
    await q.query(
      `ALTER TABLE sandbox_objects ADD CONSTRAINT sandbox_objects_object_check
         CHECK (object IN ('payment_intent', 'setup_intent', 'subscription', 'refund', 'invoice', 'dispute'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sandbox_objects WHERE object = 'dispute'`);
    await q.query(`ALTER TABLE sandbox_objects DROP CONSTRAINT sandbox_objects_object_check`);
    await q.query(
      `ALTER TABLE sandbox_objects ADD CONSTRAINT sandbox_objects_object_check
         CHECK (object IN ('payment_intent', 'setup_intent', 'subscription', 'refund', 'invoice'))`,
    );
  }
}
