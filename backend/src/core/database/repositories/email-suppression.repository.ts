import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PersonalDataOwner, PersonErasure, PersonFindings, PersonKey, SqlExecutor, TableColumns } from '../personal-data';
import { affectedRows } from './sql-results';

/** An `email_suppressions` row: an address that unsubscribed from marketing e-mail (transactional mail still goes). */
interface EmailSuppressionRow {
  email_normalized: string;
  created_at: Date;
}

export const EMAIL_SUPPRESSION_TABLES: readonly TableColumns[] = [
  { table: 'email_suppressions', personal: ['email_normalized'], notPersonal: [] },
];

/** Addresses that unsubscribed from marketing e-mail, normalised. */
@Injectable()
export class EmailSuppressionRepository implements PersonalDataOwner {
  readonly tables = EMAIL_SUPPRESSION_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  /** Idempotent: unsubscribing twice keeps the first date. */
  async suppress(emailNormalized: string): Promise<void> {
    await this.dataSource.query(`INSERT INTO email_suppressions (email_normalized) VALUES ($1) ON CONFLICT (email_normalized) DO NOTHING`, [
      emailNormalized,
    ]);
  }

  async isSuppressed(emailNormalized: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM email_suppressions WHERE email_normalized = $1`, [emailNormalized]);
    return rows.length > 0;
  }

  async findPerson(person: PersonKey, sql: SqlExecutor, forUpdate: boolean): Promise<PersonFindings> {
    const [row]: EmailSuppressionRow[] = await sql.query(
      `SELECT email_normalized, created_at FROM email_suppressions WHERE email_normalized = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [person.emailNormalized],
    );
    return {
      sections: { emailSuppression: row ? { unsubscribedAt: new Date(row.created_at).toISOString() } : null },
      // Keyed by the address itself: no row id to name in the audit entry.
      subjects: [],
      emails: [],
      names: [],
    };
  }

  /**
   * The row goes with the rest of the person: their leads are erased too, so nothing is left to
   * send marketing to, and should they opt in again later that is a new consent.
   */
  async erasePerson(erasure: PersonErasure, sql: SqlExecutor): Promise<Record<string, number>> {
    const emailSuppressions = affectedRows(
      await sql.query(`DELETE FROM email_suppressions WHERE email_normalized = ANY($1::text[])`, [
        [erasure.emailNormalized, ...erasure.emails],
      ]),
    );
    return { emailSuppressions };
  }
}
