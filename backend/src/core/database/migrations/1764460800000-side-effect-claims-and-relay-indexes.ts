import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * side_effects becomes a claim-first ledger: a row is written (status 'claimed') before the
 * external call and finished ('done' or 'failed') after it, so an interrupted attempt is resumed
 * under the same idempotency key instead of repeated blind. The outbox gets a relay lease,
 * a marker for rows no running worker knows, and partial indexes that cover only open rows.
 */
export class SideEffectClaimsAndRelayIndexes1764460800000 implements MigrationInterface {
  name = 'SideEffectClaimsAndRelayIndexes1764460800000';

  async up(q: QueryRunner): Promise<void> {
    // Rows written before this migration were recorded after the provider answered: done, once.
    await q.query(`
      ALTER TABLE side_effects
        ADD COLUMN status text NOT NULL DEFAULT 'done',
        ADD COLUMN attempts int NOT NULL DEFAULT 1,
        ADD COLUMN last_error text,
        ADD COLUMN last_attempt_at timestamptz,
        ADD COLUMN finished_at timestamptz`);
    await q.query(`UPDATE side_effects SET last_attempt_at = created_at, finished_at = created_at`);
    await q.query(`
      ALTER TABLE side_effects
        ALTER COLUMN status SET DEFAULT 'claimed',
        ALTER COLUMN attempts SET DEFAULT 0,
        ALTER COLUMN last_attempt_at SET DEFAULT now(),
        ALTER COLUMN last_attempt_at SET NOT NULL,
        ADD CONSTRAINT ck_side_effects_status CHECK (status IN ('claimed', 'done', 'failed'))`);

    await q.query(`ALTER TABLE outbox ADD COLUMN lease_until timestamptz, ADD COLUMN unhandled_at timestamptz`);
    await q.query(`DROP INDEX ix_outbox_open`);
    // What the relay scans every poll: rows not yet handed to Redis.
    await q.query(
      `CREATE INDEX ix_outbox_undispatched ON outbox (created_at) WHERE dispatched_at IS NULL AND completed_at IS NULL AND failed_at IS NULL`,
    );
    // Redispatch looks for rows handed to Redis long ago that never reported done.
    await q.query(
      `CREATE INDEX ix_outbox_in_flight ON outbox (dispatched_at) WHERE dispatched_at IS NOT NULL AND completed_at IS NULL AND failed_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_outbox_in_flight`);
    await q.query(`DROP INDEX ix_outbox_undispatched`);
    await q.query(`CREATE INDEX ix_outbox_open ON outbox (created_at) WHERE completed_at IS NULL AND failed_at IS NULL`);
    await q.query(`ALTER TABLE outbox DROP COLUMN unhandled_at, DROP COLUMN lease_until`);
    await q.query(`DELETE FROM side_effects WHERE status <> 'done'`);
    await q.query(`
      ALTER TABLE side_effects
        DROP CONSTRAINT ck_side_effects_status,
        DROP COLUMN finished_at,
        DROP COLUMN last_attempt_at,
        DROP COLUMN last_error,
        DROP COLUMN attempts,
        DROP COLUMN status`);
  }
}
