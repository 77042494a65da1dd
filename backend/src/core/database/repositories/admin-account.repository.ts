import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PersonalDataOwner, PersonFindings, SqlExecutor, TableColumns } from '../personal-data';
import { nothingFound } from '../personal-data';

/** An `admin_accounts` row: a person who may sign in to /admin; created only by `npm run admin:create`. */
export interface AdminAccountRow {
  id: string;
  /** As typed when the account was created; sign-in looks up `email_normalized`. */
  email: string;
  email_normalized: string;
  /** argon2id PHC string (algorithm, parameters and salt included). */
  password_hash: string;
  created_at: Date;
  last_login_at: Date | null;
}

/** An `admin_sessions` row: a signed-in admin browser. Absolute lifetime: `expires_at` is fixed at sign-in. */
export interface AdminSessionRow {
  /** SHA-256 (hex) of the random session id in the cookie; the id itself is never stored. */
  id_hash: string;
  admin_id: string;
  created_at: Date;
  expires_at: Date;
}

export const ADMIN_ACCOUNT_TABLES: readonly TableColumns[] = [
  { table: 'admin_accounts', personal: ['email', 'email_normalized'], notPersonal: ['password_hash'] },
  { table: 'admin_sessions', personal: [], notPersonal: ['id_hash'] },
];

/** Admin accounts and their sessions. */
@Injectable()
export class AdminAccountRepository implements PersonalDataOwner {
  readonly tables = ADMIN_ACCOUNT_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  async findByEmail(emailNormalized: string): Promise<Pick<AdminAccountRow, 'id' | 'email' | 'password_hash'> | null> {
    const rows: Array<Pick<AdminAccountRow, 'id' | 'email' | 'password_hash'>> = await this.dataSource.query(
      `SELECT id, email, password_hash FROM admin_accounts WHERE email_normalized = $1`,
      [emailNormalized],
    );
    return rows[0] ?? null;
  }

  async recordLogin(adminId: string): Promise<void> {
    await this.dataSource.query(`UPDATE admin_accounts SET last_login_at = now() WHERE id = $1`, [adminId]);
  }

  /** Creates the account, or sets a new password when the address has one; `created` says which. */
  async upsert(
    sql: SqlExecutor,
    account: Pick<AdminAccountRow, 'email' | 'email_normalized' | 'password_hash'>,
  ): Promise<{ id: string; created: boolean }> {
    const rows: Array<{ id: string; created: boolean }> = await sql.query(
      `INSERT INTO admin_accounts (email, email_normalized, password_hash) VALUES ($1, $2, $3)
       ON CONFLICT (email_normalized) DO UPDATE SET password_hash = EXCLUDED.password_hash
       RETURNING id, (xmax = 0) AS created`,
      [account.email, account.email_normalized, account.password_hash],
    );
    return rows[0];
  }

  /** Whether anyone can sign in to /admin yet. */
  async anyExists(): Promise<boolean> {
    const rows: Array<{ any: boolean }> = await this.dataSource.query('SELECT EXISTS (SELECT 1 FROM admin_accounts) AS any');
    return rows[0].any;
  }

  /** Opens a session, dropping every admin's expired sessions on the way. */
  async insertSession(session: Pick<AdminSessionRow, 'id_hash' | 'admin_id' | 'expires_at'>): Promise<void> {
    await this.dataSource.query(`DELETE FROM admin_sessions WHERE expires_at <= now()`);
    await this.dataSource.query(`INSERT INTO admin_sessions (id_hash, admin_id, expires_at) VALUES ($1, $2, $3)`, [
      session.id_hash,
      session.admin_id,
      session.expires_at,
    ]);
  }

  /** The live session under this hash, with its admin's e-mail. */
  async findLiveSession(
    idHash: string,
  ): Promise<(Pick<AdminSessionRow, 'admin_id' | 'expires_at'> & Pick<AdminAccountRow, 'email'>) | null> {
    const rows: Array<Pick<AdminSessionRow, 'admin_id' | 'expires_at'> & Pick<AdminAccountRow, 'email'>> = await this.dataSource.query(
      `SELECT s.admin_id, a.email, s.expires_at FROM admin_sessions s JOIN admin_accounts a ON a.id = s.admin_id
       WHERE s.id_hash = $1 AND s.expires_at > now()`,
      [idHash],
    );
    return rows[0] ?? null;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM admin_sessions WHERE id_hash = $1`, [idHash]);
  }

  /** Signs the admin out everywhere. */
  async deleteSessionsOf(sql: SqlExecutor, adminId: string): Promise<void> {
    await sql.query('DELETE FROM admin_sessions WHERE admin_id = $1', [adminId]);
  }

  /** Staff accounts, managed with `npm run admin:create`: not part of a member's data. */
  findPerson(): Promise<PersonFindings> {
    return Promise.resolve(nothingFound());
  }

  erasePerson(): Promise<Record<string, number>> {
    return Promise.resolve({});
  }
}
