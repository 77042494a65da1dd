import { MigrationInterface, QueryRunner } from 'typeorm';

/** What the daily retention job scans: each a partial index over only the rows it may touch. */
const INDEXES: ReadonlyArray<[name: string, definition: string]> = [
  // Finished outbox rows by when they finished.
  ['ix_outbox_finished', 'outbox ((COALESCE(completed_at, failed_at))) WHERE completed_at IS NOT NULL OR failed_at IS NOT NULL'],
  // Finished ledger entries; a claim still open is never deleted.
  ['ix_side_effects_finished', `side_effects (finished_at) WHERE status <> 'claimed'`],
  // Applied webhook events; an unapplied one is still owed.
  ['ix_payment_events_applied', 'payment_events (received_at) WHERE applied_at IS NOT NULL'],
  // Audit entries that still hold a client address.
  ['ix_admin_audit_log_client_ip', 'admin_audit_log (at) WHERE client_ip IS NOT NULL'],
];

/**
 * Data retention: the indexes the retention job deletes by, and running totals of the finished
 * jobs it deletes from the outbox, so `funnel_jobs_total` keeps counting them (a Prometheus
 * counter must never go down). The indexes are built CONCURRENTLY, so the outbox and the ledger
 * keep taking writes meanwhile; that cannot run in a transaction, and each step can be re-run.
 */
export class Retention1765324800000 implements MigrationInterface {
  name = 'Retention1765324800000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS outbox_outcome_totals (
        job_name text PRIMARY KEY,
        completed bigint NOT NULL DEFAULT 0,
        failed bigint NOT NULL DEFAULT 0
      )`);
    for (const [name, definition] of INDEXES) {
      // An interrupted CONCURRENTLY build leaves an invalid index behind: start that one afresh.
      await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
      await q.query(`CREATE INDEX CONCURRENTLY ${name} ON ${definition}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of INDEXES) await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
    await q.query(`DROP TABLE IF EXISTS outbox_outcome_totals`);
  }
}
