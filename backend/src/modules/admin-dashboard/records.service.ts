import { Injectable } from '@nestjs/common';
import type { AdminLeadRow, AdminOrderRow, AdminPage } from '@contracts/admin';
import { normalizeEmail } from '@contracts/email';
import { LeadRepository, type LeadListing } from '@core/database/repositories/lead.repository';
import { OrderRepository, type OrderListing } from '@core/database/repositories/order.repository';
import { containsPattern } from '@core/database/repositories/sql-results';
import { toCsv } from './csv';

const DEFAULT_PAGE_SIZE = 25;
/** An export is for a spreadsheet; beyond this the admin should narrow the search. */
export const EXPORT_ROW_LIMIT = 50_000;

/** `%part%` for LIKE on the normalised e-mail, with LIKE's own wildcards taken literally. */
function likePattern(q: string | undefined): string {
  return containsPattern(q ? normalizeEmail(q) : '');
}

const toLead = (row: LeadListing): AdminLeadRow => ({
  id: row.id,
  email: row.email,
  name: row.name,
  phone: row.phone,
  referral: row.referral,
  submissionCount: row.submission_count,
  firstSubmittedAt: row.first_submitted_at.toISOString(),
  lastSubmittedAt: row.last_submitted_at.toISOString(),
});

const toOrder = (row: OrderListing): AdminOrderRow => ({
  id: row.id,
  email: row.email,
  name: row.name,
  planId: row.plan_id,
  amountCents: row.amount_cents,
  currency: row.currency.toUpperCase(),
  status: row.status,
  source: row.source,
  referral: row.referral,
  createdAt: row.created_at.toISOString(),
  paidAt: row.paid_at?.toISOString() ?? null,
});

/** The dashboard's recent leads and orders: newest first, searched by e-mail, paged or as CSV. */
@Injectable()
export class RecordsService {
  constructor(
    private readonly leadRows: LeadRepository,
    private readonly orderRows: OrderRepository,
  ) {}

  async leads(q: string | undefined, page = 1, pageSize = DEFAULT_PAGE_SIZE): Promise<AdminPage<AdminLeadRow>> {
    const rows = await this.leadRows.search(likePattern(q), pageSize, (page - 1) * pageSize);
    return { items: rows.map(toLead), total: await this.totalOf(rows, 'leads', q), page, pageSize };
  }

  async orders(q: string | undefined, page = 1, pageSize = DEFAULT_PAGE_SIZE): Promise<AdminPage<AdminOrderRow>> {
    const rows = await this.orderRows.search(likePattern(q), pageSize, (page - 1) * pageSize);
    return { items: rows.map(toOrder), total: await this.totalOf(rows, 'orders', q), page, pageSize };
  }

  async leadsCsv(q: string | undefined): Promise<{ csv: string; rows: number }> {
    const rows = await this.leadRows.searchAll(likePattern(q), EXPORT_ROW_LIMIT);
    const header = ['id', 'email', 'name', 'phone', 'referral', 'submission_count', 'first_submitted_at', 'last_submitted_at'];
    const csv = toCsv(
      header,
      rows.map((r) => [r.id, r.email, r.name, r.phone, r.referral, r.submission_count, r.first_submitted_at, r.last_submitted_at]),
    );
    return { csv, rows: rows.length };
  }

  async ordersCsv(q: string | undefined): Promise<{ csv: string; rows: number }> {
    const rows = await this.orderRows.searchAll(likePattern(q), EXPORT_ROW_LIMIT);
    const header = ['id', 'email', 'name', 'plan', 'amount', 'currency', 'status', 'source', 'referral', 'created_at', 'paid_at'];
    const csv = toCsv(
      header,
      rows.map((r) => [
        r.id,
        r.email,
        r.name,
        r.plan_id,
        (r.amount_cents / 100).toFixed(2),
        r.currency.toUpperCase(),
        r.status,
        r.source,
        r.referral,
        r.created_at,
        r.paid_at,
      ]),
    );
    return { csv, rows: rows.length };
  }

  /** The window count rides on each row; a page past the end has none, so it is counted apart. */
  private async totalOf(rows: Array<{ total: string }>, table: 'leads' | 'orders', q: string | undefined): Promise<number> {
    if (rows.length > 0) return Number(rows[0].total);
    return (table === 'leads' ? this.leadRows : this.orderRows).countMatching(likePattern(q));
  }
}
