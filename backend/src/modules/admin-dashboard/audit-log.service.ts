import { Injectable } from '@nestjs/common';
import type { AdminAuditRow, AdminPage } from '@contracts/admin';
import { AuditRepository } from '@core/database/repositories/audit.repository';

/** Reads the admin audit log for the dashboard (every admin action writes it through AuditRepository). */
@Injectable()
export class AuditLogService {
  constructor(private readonly audit: AuditRepository) {}

  async page(page = 1, pageSize = 25): Promise<AdminPage<AdminAuditRow>> {
    const rows = await this.audit.page(pageSize, (page - 1) * pageSize);
    const total = await this.audit.count();
    return {
      items: rows.map((row) => ({
        id: String(row.id),
        at: row.at.toISOString(),
        action: row.action,
        admin: row.admin,
        target: row.target,
        clientIp: row.client_ip,
        details: row.details,
      })),
      total,
      page,
      pageSize,
    };
  }
}
