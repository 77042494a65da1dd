import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAdminAccounts1764896400000 implements MigrationInterface {
  name = 'CreateAdminAccounts1764896400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE admin_accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        email_normalized text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_login_at timestamptz,
        CONSTRAINT uq_admin_accounts_email UNIQUE (email_normalized)
      )`);
    // The cookie holds the session id; only its SHA-256 is stored, so a database read yields no usable session.
    await q.query(`
      CREATE TABLE admin_sessions (
        id_hash text PRIMARY KEY,
        admin_id uuid NOT NULL REFERENCES admin_accounts (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX ix_admin_sessions_admin ON admin_sessions (admin_id)`);
    await q.query(`CREATE INDEX ix_admin_sessions_expires ON admin_sessions (expires_at)`);
    // Kept when an account goes: the record of what was done outlives who did it.
    await q.query(`
      CREATE TABLE admin_audit_log (
        id bigserial PRIMARY KEY,
        admin_id uuid REFERENCES admin_accounts (id) ON DELETE SET NULL,
        action text NOT NULL,
        target text,
        at timestamptz NOT NULL DEFAULT now(),
        client_ip text
      )`);
    await q.query(`CREATE INDEX ix_admin_audit_log_at ON admin_audit_log (at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE admin_audit_log`);
    await q.query(`DROP TABLE admin_sessions`);
    await q.query(`DROP TABLE admin_accounts`);
  }
}
