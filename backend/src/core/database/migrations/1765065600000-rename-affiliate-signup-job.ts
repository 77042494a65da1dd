import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The job that signs a lead up with the affiliate service was called `lead-attribution`, the
 * name of the cookie reading at opt-in too. Outbox rows not yet done take the new name, so the
 * relay dispatches them to the handler that now answers to it; a job already in Redis under the
 * old name is dispatched again from its row, and the provider-call ledger keeps the call single.
 */
export class RenameAffiliateSignupJob1765065600000 implements MigrationInterface {
  name = 'RenameAffiliateSignupJob1765065600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE outbox SET job_name = 'affiliate-signup', dispatched_at = NULL WHERE job_name = 'lead-attribution' AND completed_at IS NULL AND failed_at IS NULL`,
    );
    await q.query(`UPDATE outbox SET job_name = 'affiliate-signup' WHERE job_name = 'lead-attribution'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE outbox SET job_name = 'lead-attribution' WHERE job_name = 'affiliate-signup'`);
  }
}
