import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AdminAuditAction, AdminAuditRow, AdminPage } from '@contracts/admin';

/** Reads the admin audit log for the dashboard (AuditService in the admin module writes it). */
@Injectable()
export class AuditLogService {
  constructor(private readonly dataSource: DataSource) {}

  async page(page = 1, pageSize = 25): Promise<AdminPage<AdminAuditRow>> {
    const rows: Array<{
      id: string;
      at: Date;
      action: AdminAuditAction;
      admin: string | null;
      target: string | null;
      client_ip: string | null;
    }> = await this.dataSource.query(
      `SELECT l.id, l.at, l.action, a.email AS admin, l.target, l.client_ip
           FROM admin_audit_log l LEFT JOIN admin_accounts a ON a.id = l.admin_id
          ORDER BY l.at DESC, l.id DESC LIMIT $1 OFFSET $2`,
      [pageSize, (page - 1) * pageSize],
    );
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(`SELECT count(*)::int AS total FROM admin_audit_log`);
    return {
      items: rows.map((row) => ({
        id: String(row.id),
        at: row.at.toISOString(),
        action: row.action,
        admin: row.admin,
        target: row.target,
        clientIp: row.client_ip,
      })),
      total,
      page,
      pageSize,
    };
  }
}
