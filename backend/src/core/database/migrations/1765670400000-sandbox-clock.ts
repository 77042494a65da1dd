import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The payment sandbox's own time (how far it has been moved ahead of the real clock by
 * `POST /api/sandbox/clock`), and its renewal invoices beside its intents and subscriptions.
 */
export class SandboxClock1765670400000 implements MigrationInterface {
  name = 'SandboxClock1765670400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE sandbox_clock (id boolean PRIMARY KEY DEFAULT true CHECK (id), offset_seconds bigint NOT NULL DEFAULT 0)`);
    await q.query(`INSERT INTO sandbox_clock (id, offset_seconds) VALUES (true, 0)`);
    await q.query(`ALTER TABLE sandbox_objects DROP CONSTRAINT sandbox_objects_object_check`);
    await q.query(
      `ALTER TABLE sandbox_objects ADD CONSTRAINT sandbox_objects_object_check CHECK (object IN ('payment_intent', 'setup_intent', 'subscription', 'refund', 'invoice'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sandbox_objects WHERE object = 'invoice'`);
    await q.query(`ALTER TABLE sandbox_objects DROP CONSTRAINT sandbox_objects_object_check`);
    await q.query(
      `ALTER TABLE sandbox_objects ADD CONSTRAINT sandbox_objects_object_check CHECK (object IN ('payment_intent', 'setup_intent', 'subscription', 'refund'))`,
    );
    await q.query(`DROP TABLE sandbox_clock`);
  }
}
