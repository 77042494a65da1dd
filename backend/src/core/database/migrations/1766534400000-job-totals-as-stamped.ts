import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `outbox_outcome_totals` becomes the whole count of jobs completed and given up per job name:
 * the worker adds to it as it stamps rows, so /api/metrics no longer scans the outbox. Until now
 * it held only the rows retention had deleted; the finished rows still in the outbox are added
 * once here. (A worker of the previous release stamping rows while this runs leaves those few
 * uncounted: the counter is a figure for dashboards, not a ledger.)
 */
export class JobTotalsAsStamped1766534400000 implements MigrationInterface {
  name = 'JobTotalsAsStamped1766534400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO outbox_outcome_totals AS t (job_name, completed, failed)
      SELECT job_name, count(completed_at), count(failed_at) FROM outbox GROUP BY job_name ORDER BY job_name
      ON CONFLICT (job_name) DO UPDATE SET completed = t.completed + excluded.completed, failed = t.failed + excluded.failed`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Back to "deleted rows only": take the rows still in the outbox out again.
    await q.query(`
      UPDATE outbox_outcome_totals t SET completed = greatest(t.completed - o.completed, 0), failed = greatest(t.failed - o.failed, 0)
        FROM (SELECT job_name, count(completed_at) AS completed, count(failed_at) AS failed FROM outbox GROUP BY job_name) o
       WHERE o.job_name = t.job_name`);
  }
}
