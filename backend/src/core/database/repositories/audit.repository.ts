import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AdminAuditAction } from '@contracts/admin';
import type { PersonalDataOwner, PersonFindings, SqlExecutor, TableColumns } from '../personal-data';
import { nothingFound } from '../personal-data';
import { affectedRows } from './sql-results';

/** An `admin_audit_log` row: one admin action (sign-in, failed sign-in, create, edit, delete…). Never holds a password. */
export interface AdminAuditRow {
  id: string;
  /** Null for a failed sign-in to an address that has no account, or after the account was removed. */
  admin_id: string | null;
  action: AdminAuditAction;
  /** What the action touched, as `kind:id` (e.g. `testimonial:…`); null when nothing in particular. */
  target: string | null;
  at: Date;
  client_ip: string | null;
  details: AuditDetails | null;
}

/** What an entry's target alone does not say (a refund's id and amount). Never personal data or a secret. */
type AuditDetails = Record<string, string | number>;

export interface AuditEntry {
  /** Who acted; null for a failed sign-in to an address without an account. */
  adminId: string | null;
  action: AdminAuditAction;
  /** What was touched, as `kind:id` (e.g. `testimonial:<uuid>`). Never personal data or a secret. */
  target?: string | null;
  clientIp?: string | null;
  details?: AuditDetails | null;
}

export const AUDIT_TABLES: readonly TableColumns[] = [
  // The client IP is the acting admin's.
  { table: 'admin_audit_log', personal: ['client_ip'], notPersonal: ['action', 'target', 'details'] },
];

/** The admin audit log: written with each admin action, read by the dashboard. */
@Injectable()
export class AuditRepository implements PersonalDataOwner {
  readonly tables = AUDIT_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  /** Pass a transaction's manager to record the action with its change. */
  async record(entry: AuditEntry, sql: SqlExecutor = this.dataSource): Promise<void> {
    await sql.query(`INSERT INTO admin_audit_log (admin_id, action, target, client_ip, details) VALUES ($1, $2, $3, $4, $5)`, [
      entry.adminId,
      entry.action,
      entry.target ?? null,
      entry.clientIp ?? null,
      entry.details ?? null,
    ]);
  }

  /** Newest first, with the acting admin's e-mail. */
  page(
    limit: number,
    offset: number,
  ): Promise<Array<Pick<AdminAuditRow, 'id' | 'at' | 'action' | 'target' | 'client_ip' | 'details'> & { admin: string | null }>> {
    return this.dataSource.query<
      Array<Pick<AdminAuditRow, 'id' | 'at' | 'action' | 'target' | 'client_ip' | 'details'> & { admin: string | null }>
    >(
      `SELECT l.id, l.at, l.action, a.email AS admin, l.target, l.client_ip, l.details
           FROM admin_audit_log l LEFT JOIN admin_accounts a ON a.id = l.admin_id
          ORDER BY l.at DESC, l.id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
  }

  async count(): Promise<number> {
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(`SELECT count(*)::int AS total FROM admin_audit_log`);
    return total;
  }

  /**
   * Clears the client address of up to `batchSize` entries written more than `days` ago; the
   * entries themselves (who, what, when) stay. Resolves with how many were cleared.
   */
  async forgetClientIpsBefore(days: number, batchSize: number): Promise<number> {
    return affectedRows(
      await this.dataSource.query(
        `UPDATE admin_audit_log SET client_ip = NULL WHERE id IN (
           SELECT id FROM admin_audit_log
            WHERE client_ip IS NOT NULL AND at < now() - make_interval(days => $1::int)
            LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [days, batchSize],
      ),
    );
  }

  /** What admins did, by their own sign-in: not a member's data, and kept as the record of what was done. */
  findPerson(): Promise<PersonFindings> {
    return Promise.resolve(nothingFound());
  }

  erasePerson(): Promise<Record<string, number>> {
    return Promise.resolve({});
  }
}
