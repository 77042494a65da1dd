import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The invitation gate: one `invitations` row per person (normalised e-mail unique, so a
 * resubmission updates it), every submission in `invitation_submissions`, and the access tokens
 * issued to it in `invitation_tokens`, by SHA-256 only. Tokens have their own table because an
 * invitation can hold several live ones: the e-mailed link keeps working while a resubmission in
 * instant mode hands out a fresh token (the plain token exists only in the API's answer and,
 * sealed, in the e-mail job).
 */
export class CreateInvitations1764806400000 implements MigrationInterface {
  name = 'CreateInvitations1764806400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        email text NOT NULL,
        email_normalized text NOT NULL CONSTRAINT uq_invitations_email_normalized UNIQUE,
        phone text,
        invited_by text,
        referral text,
        delivery text NOT NULL CHECK (delivery IN ('instant', 'email')),
        submission_count int NOT NULL DEFAULT 0,
        tokens_issued int NOT NULL DEFAULT 0,
        email_owed_at timestamptz,
        email_status text,
        last_emailed_at timestamptz,
        verified_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE invitation_tokens (
        token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        invitation_id uuid NOT NULL REFERENCES invitations(id) ON DELETE CASCADE,
        issue int NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_invitation_tokens_issue UNIQUE (invitation_id, issue)
      )`);
    await q.query(`
      CREATE TABLE invitation_submissions (
        id bigserial PRIMARY KEY,
        invitation_id uuid NOT NULL REFERENCES invitations(id) ON DELETE CASCADE,
        submitted_at timestamptz NOT NULL DEFAULT now(),
        name text NOT NULL,
        phone text,
        invited_by text,
        referral text,
        delivery text NOT NULL
      )`);
    await q.query(`CREATE INDEX ix_invitation_submissions_invitation ON invitation_submissions (invitation_id, submitted_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE invitation_submissions`);
    await q.query(`DROP TABLE invitation_tokens`);
    await q.query(`DROP TABLE invitations`);
  }
}
