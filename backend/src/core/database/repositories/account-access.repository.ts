import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PersonalDataOwner, PersonErasure, PersonFindings, PersonKey, SqlExecutor, TableColumns } from '../personal-data';
import { affectedRows } from './sql-results';

/** An `account_link_tokens` row: one e-mailed sign-in link of the account page; single use. */
export interface AccountLinkTokenRow {
  id: string;
  /** SHA-256 (hex) of the token in the link; the token itself is never stored. */
  token_hash: string;
  email_normalized: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

/** An `account_sessions` row: a browser signed in to its buyer's account through a link. */
export interface AccountSessionRow {
  /** SHA-256 (hex) of the random session id in the httpOnly cookie. */
  id_hash: string;
  email_normalized: string;
  expires_at: Date;
  created_at: Date;
}

export const ACCOUNT_ACCESS_TABLES: readonly TableColumns[] = [
  { table: 'account_link_tokens', personal: ['email_normalized'], notPersonal: ['token_hash'] },
  { table: 'account_sessions', personal: ['email_normalized'], notPersonal: ['id_hash'] },
];

/** The account page's sign-in links and sessions, keyed by the buyer's normalised e-mail. */
@Injectable()
export class AccountAccessRepository implements PersonalDataOwner {
  readonly tables = ACCOUNT_ACCESS_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Issues a link token unless `maxPerHour` were issued to the address in the past hour. One
   * transaction holds the address's advisory lock, so two requests for one address are counted
   * one after the other. Expired tokens over an hour old and expired sessions of the address go
   * on the way (links are rare, so no scheduled job is needed for them). `issuedInPastHour`
   * counts the links before this one.
   */
  async issueLinkTokenWithinHourlyLimit(
    token: Pick<AccountLinkTokenRow, 'id' | 'token_hash' | 'email_normalized' | 'expires_at'>,
    maxPerHour: number,
  ): Promise<{ issued: boolean; issuedInPastHour: number }> {
    const email = token.email_normalized;
    return this.dataSource.transaction(async (sql) => {
      await sql.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`account-links:${email}`]);
      await sql.query(
        `DELETE FROM account_link_tokens WHERE email_normalized = $1 AND expires_at < now() AND created_at < now() - interval '1 hour'`,
        [email],
      );
      await sql.query(`DELETE FROM account_sessions WHERE email_normalized = $1 AND expires_at < now()`, [email]);
      const [{ n }]: Array<{ n: number }> = await sql.query(
        `SELECT count(*)::int AS n FROM account_link_tokens WHERE email_normalized = $1 AND created_at > now() - interval '1 hour'`,
        [email],
      );
      if (n >= maxPerHour) return { issued: false, issuedInPastHour: n };
      await sql.query(
        `INSERT INTO account_link_tokens (id, token_hash, email_normalized, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [token.id, token.token_hash, email, token.expires_at],
      );
      return { issued: true, issuedInPastHour: n };
    });
  }

  /** A link token with the address its e-mail goes to (as typed on the buyer's latest order). */
  async findLinkToken(id: string): Promise<(AccountLinkTokenRow & { email: string | null }) | null> {
    const [row]: Array<AccountLinkTokenRow & { email: string | null }> = await this.dataSource.query(
      `SELECT t.*, (SELECT o.email FROM orders o WHERE o.email_normalized = t.email_normalized ORDER BY o.created_at DESC LIMIT 1) AS email
         FROM account_link_tokens t WHERE t.id = $1`,
      [id],
    );
    return row ?? null;
  }

  /**
   * Uses a live, unused token once: the one statement that marks it used answers with its
   * address, so two concurrent exchanges of one link open one session.
   */
  async consumeLinkToken(tokenHash: string): Promise<string | null> {
    const [rows]: [Array<Pick<AccountLinkTokenRow, 'email_normalized'>>, number] = await this.dataSource.query(
      `UPDATE account_link_tokens SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
       RETURNING email_normalized`,
      [tokenHash],
    );
    return rows[0]?.email_normalized ?? null;
  }

  async insertSession(session: Pick<AccountSessionRow, 'id_hash' | 'email_normalized' | 'expires_at'>): Promise<void> {
    await this.dataSource.query(`INSERT INTO account_sessions (id_hash, email_normalized, expires_at) VALUES ($1, $2, $3)`, [
      session.id_hash,
      session.email_normalized,
      session.expires_at,
    ]);
  }

  async findLiveSession(idHash: string): Promise<Pick<AccountSessionRow, 'email_normalized' | 'expires_at'> | null> {
    const [row]: Array<Pick<AccountSessionRow, 'email_normalized' | 'expires_at'>> = await this.dataSource.query(
      `SELECT email_normalized, expires_at FROM account_sessions WHERE id_hash = $1 AND expires_at > now()`,
      [idHash],
    );
    return row ?? null;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM account_sessions WHERE id_hash = $1`, [idHash]);
  }

  /** Only hashes and expiry times: the export says how many links and sessions exist, not their hashes. */
  async findPerson(person: PersonKey, sql: SqlExecutor): Promise<PersonFindings> {
    const links: Array<Pick<AccountLinkTokenRow, 'id' | 'expires_at' | 'used_at' | 'created_at'>> = await sql.query(
      `SELECT id, expires_at, used_at, created_at FROM account_link_tokens WHERE email_normalized = $1 ORDER BY created_at`,
      [person.emailNormalized],
    );
    const sessions: Array<Pick<AccountSessionRow, 'expires_at' | 'created_at'>> = await sql.query(
      `SELECT expires_at, created_at FROM account_sessions WHERE email_normalized = $1 ORDER BY created_at`,
      [person.emailNormalized],
    );
    return {
      sections: { accountLinks: links, accountSessions: sessions },
      subjects: links.map((link) => `account-link:${link.id}`),
      emails: [],
      names: [],
    };
  }

  /** Sign-in links and sessions are deleted: an erased person is signed out everywhere. */
  async erasePerson(erasure: PersonErasure, sql: SqlExecutor): Promise<Record<string, number>> {
    const accountLinks = affectedRows(
      await sql.query(`DELETE FROM account_link_tokens WHERE email_normalized = $1`, [erasure.emailNormalized]),
    );
    const accountSessions = affectedRows(
      await sql.query(`DELETE FROM account_sessions WHERE email_normalized = $1`, [erasure.emailNormalized]),
    );
    return { accountLinks, accountSessions };
  }
}
