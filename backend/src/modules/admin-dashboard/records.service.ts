import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AdminLeadRow, AdminOrderRow, AdminPage } from '@contracts/admin';
import { normalizeEmail } from '@contracts/email';
import { toCsv } from './csv';

const DEFAULT_PAGE_SIZE = 25;
/** An export is for a spreadsheet; beyond this the admin should narrow the search. */
export const EXPORT_ROW_LIMIT = 50_000;

interface LeadSql {
  id: string;
  email: string;
  name: string | null;
  phone: string | null;
  referral: string | null;
  submission_count: number;
  first_submitted_at: Date;
  last_submitted_at: Date;
}

interface OrderSql {
  id: string;
  email: string;
  name: string;
  plan_id: string;
  amount_cents: number;
  currency: string;
  status: string;
  source: string;
  referral: string | null;
  created_at: Date;
  paid_at: Date | null;
}

/** `%part%` for LIKE on the normalised e-mail, with LIKE's own wildcards taken literally. */
function likePattern(q: string | undefined): string {
  const part = q ? normalizeEmail(q) : '';
  return `%${part.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const toLead = (row: LeadSql): AdminLeadRow => ({
  id: row.id,
  email: row.email,
  name: row.name,
  phone: row.phone,
  referral: row.referral,
  submissionCount: row.submission_count,
  firstSubmittedAt: row.first_submitted_at.toISOString(),
  lastSubmittedAt: row.last_submitted_at.toISOString(),
});

const toOrder = (row: OrderSql): AdminOrderRow => ({
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

const LEAD_COLUMNS = `id, email, name, phone, referral, submission_count, first_submitted_at, last_submitted_at`;
const ORDER_COLUMNS = `id, email, name, plan_id, amount_cents, currency, status, source, referral, created_at, paid_at`;

/** The dashboard's recent leads and orders: newest first, searched by e-mail, paged or as CSV. */
@Injectable()
export class RecordsService {
  constructor(private readonly dataSource: DataSource) {}

  async leads(q: string | undefined, page = 1, pageSize = DEFAULT_PAGE_SIZE): Promise<AdminPage<AdminLeadRow>> {
    const rows: Array<LeadSql & { total: string }> = await this.dataSource.query(
      `SELECT ${LEAD_COLUMNS}, count(*) OVER () AS total FROM leads WHERE email_normalized LIKE $1
        ORDER BY last_submitted_at DESC, id LIMIT $2 OFFSET $3`,
      [likePattern(q), pageSize, (page - 1) * pageSize],
    );
    return { items: rows.map(toLead), total: await this.totalOf(rows, 'leads', q), page, pageSize };
  }

  async orders(q: string | undefined, page = 1, pageSize = DEFAULT_PAGE_SIZE): Promise<AdminPage<AdminOrderRow>> {
    const rows: Array<OrderSql & { total: string }> = await this.dataSource.query(
      `SELECT ${ORDER_COLUMNS}, count(*) OVER () AS total FROM orders WHERE email_normalized LIKE $1
        ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [likePattern(q), pageSize, (page - 1) * pageSize],
    );
    return { items: rows.map(toOrder), total: await this.totalOf(rows, 'orders', q), page, pageSize };
  }

  async leadsCsv(q: string | undefined): Promise<{ csv: string; rows: number }> {
    const rows: LeadSql[] = await this.dataSource.query(
      `SELECT ${LEAD_COLUMNS} FROM leads WHERE email_normalized LIKE $1 ORDER BY last_submitted_at DESC, id LIMIT $2`,
      [likePattern(q), EXPORT_ROW_LIMIT],
    );
    const header = ['id', 'email', 'name', 'phone', 'referral', 'submission_count', 'first_submitted_at', 'last_submitted_at'];
    const csv = toCsv(
      header,
      rows.map((r) => [r.id, r.email, r.name, r.phone, r.referral, r.submission_count, r.first_submitted_at, r.last_submitted_at]),
    );
    return { csv, rows: rows.length };
  }

  async ordersCsv(q: string | undefined): Promise<{ csv: string; rows: number }> {
    const rows: OrderSql[] = await this.dataSource.query(
      `SELECT ${ORDER_COLUMNS} FROM orders WHERE email_normalized LIKE $1 ORDER BY created_at DESC, id LIMIT $2`,
      [likePattern(q), EXPORT_ROW_LIMIT],
    );
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
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM ${table} WHERE email_normalized LIKE $1`,
      [likePattern(q)],
    );
    return total;
  }
}
