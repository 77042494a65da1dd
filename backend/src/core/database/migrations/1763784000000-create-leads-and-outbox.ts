import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateLeadsAndOutbox1763784000000 implements MigrationInterface {
  name = 'CreateLeadsAndOutbox1763784000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE leads (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        email_normalized text NOT NULL,
        name text,
        phone text,
        referral text,
        attribution jsonb NOT NULL DEFAULT '{}'::jsonb,
        submission_count int NOT NULL DEFAULT 1,
        first_submitted_at timestamptz NOT NULL DEFAULT now(),
        last_submitted_at timestamptz NOT NULL DEFAULT now(),
        affiliate_status text,
        affiliate_recorded_at timestamptz,
        CONSTRAINT uq_leads_email_normalized UNIQUE (email_normalized)
      )`);
    await q.query(`
      CREATE TABLE lead_submissions (
        id bigserial PRIMARY KEY,
        lead_id uuid NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
        submitted_at timestamptz NOT NULL DEFAULT now(),
        name text,
        phone text,
        referral text,
        attribution jsonb NOT NULL DEFAULT '{}'::jsonb
      )`);
    await q.query(`CREATE INDEX ix_lead_submissions_lead ON lead_submissions (lead_id, submitted_at)`);
    await q.query(`
      CREATE TABLE outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        queue text NOT NULL,
        job_name text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        dispatched_at timestamptz,
        dispatch_count int NOT NULL DEFAULT 0,
        completed_at timestamptz,
        failed_at timestamptz,
        last_error text
      )`);
    // The relay only ever scans open rows; keep that index small as the table grows.
    await q.query(`CREATE INDEX ix_outbox_open ON outbox (created_at) WHERE completed_at IS NULL AND failed_at IS NULL`);
    await q.query(`
      CREATE TABLE side_effects (
        key text PRIMARY KEY,
        kind text NOT NULL,
        detail jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE side_effects`);
    await q.query(`DROP TABLE outbox`);
    await q.query(`DROP TABLE lead_submissions`);
    await q.query(`DROP TABLE leads`);
  }
}
