import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AdminAuditAction } from '@contracts/admin';

export interface AuditEntry {
  /** Who acted; null for a failed sign-in to an address without an account. */
  adminId: string | null;
  action: AdminAuditAction;
  /** What was touched, as `kind:id` (e.g. `testimonial:<uuid>`). Never personal data or a secret. */
  target?: string | null;
  clientIp?: string | null;
}

/** Anything that runs SQL: the DataSource, or a transaction's EntityManager. */
export interface SqlExecutor {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** Writes the admin audit log. Pass a transaction's manager to record the action with its change. */
@Injectable()
export class AuditService {
  constructor(private readonly dataSource: DataSource) {}

  async record(entry: AuditEntry, executor: SqlExecutor = this.dataSource): Promise<void> {
    await executor.query(`INSERT INTO admin_audit_log (admin_id, action, target, client_ip) VALUES ($1, $2, $3, $4)`, [
      entry.adminId,
      entry.action,
      entry.target ?? null,
      entry.clientIp ?? null,
    ]);
  }
}
