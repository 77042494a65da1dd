import { Injectable } from '@nestjs/common';
import type { AdminLeadRow, AdminMemberRow, AdminOrderRow, AdminPage } from '@contracts/admin';
import type { MembershipStatus } from '@contracts/plans';
import { productName } from '@contracts/products';
import { minorUnitDigits, minorUnitsPerMajor } from '@contracts/money';
import { MembershipRepository, type MembershipListing } from '@core/database/repositories/membership.repository';
import { normalizeEmail } from '@contracts/email';
import { LeadRepository, type LeadListing } from '@core/database/repositories/lead.repository';
import { OrderReportRepository, type OrderListing } from '@core/database/repositories/order-report.repository';
import { containsPattern } from '@core/database/repositories/sql-results';
import { toCsv } from './csv';

const DEFAULT_PAGE_SIZE = 25;
/** An export is for a spreadsheet; beyond this the admin should narrow the search. */
const EXPORT_ROW_LIMIT = 50_000;

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

const toMember = (row: MembershipListing): AdminMemberRow => ({
  id: row.id,
  email: row.email ?? row.email_normalized,
  name: row.name,
  product: row.product,
  productName: productName(row.product),
  status: row.status,
  planId: row.plan_id,
  orderId: row.order_id,
  grantedAt: row.granted_at.toISOString(),
  endedAt: row.ended_at?.toISOString() ?? null,
  updatedAt: row.updated_at.toISOString(),
});

/** The dashboard's recent leads and orders: newest first, searched by e-mail, paged or as CSV. */
@Injectable()
export class RecordsService {
  constructor(
    private readonly leadRows: LeadRepository,
    private readonly orderRows: OrderReportRepository,
    private readonly memberRows: MembershipRepository,
  ) {}

  /** Who may enter which members area, most recently changed first. */
  async members(
    q: string | undefined,
    status: MembershipStatus | undefined,
    page = 1,
    pageSize = DEFAULT_PAGE_SIZE,
  ): Promise<AdminPage<AdminMemberRow>> {
    const pattern = likePattern(q);
    const [rows, total] = await Promise.all([
      this.memberRows.search(pattern, status, pageSize, (page - 1) * pageSize),
      this.memberRows.count(pattern, status),
    ]);
    return { items: rows.map(toMember), total, page, pageSize };
  }

  async membersCsv(q: string | undefined, status: MembershipStatus | undefined): Promise<{ csv: string; rows: number }> {
    const rows = (await this.memberRows.search(likePattern(q), status, EXPORT_ROW_LIMIT, 0)).map(toMember);
    const header = ['id', 'email', 'name', 'product', 'status', 'plan', 'order_id', 'granted_at', 'ended_at', 'updated_at'];
    const csv = toCsv(
      header,
      rows.map((r) => [r.id, r.email, r.name, r.product, r.status, r.planId, r.orderId, r.grantedAt, r.endedAt, r.updatedAt]),
    );
    return { csv, rows: rows.length };
  }

  async leads(q: string | undefined, page = 1, pageSize = DEFAULT_PAGE_SIZE): Promise<AdminPage<AdminLeadRow>> {
    const { rows, total } = await this.leadRows.byEmail.page(likePattern(q), pageSize, (page - 1) * pageSize);
    return { items: rows.map(toLead), total, page, pageSize };
  }

  async orders(q: string | undefined, page = 1, pageSize = DEFAULT_PAGE_SIZE): Promise<AdminPage<AdminOrderRow>> {
    const { rows, total } = await this.orderRows.byEmail.page(likePattern(q), pageSize, (page - 1) * pageSize);
    return { items: rows.map(toOrder), total, page, pageSize };
  }

  async leadsCsv(q: string | undefined): Promise<{ csv: string; rows: number }> {
    const rows = await this.leadRows.byEmail.upTo(likePattern(q), EXPORT_ROW_LIMIT);
    const header = ['id', 'email', 'name', 'phone', 'referral', 'submission_count', 'first_submitted_at', 'last_submitted_at'];
    const csv = toCsv(
      header,
      rows.map((r) => [r.id, r.email, r.name, r.phone, r.referral, r.submission_count, r.first_submitted_at, r.last_submitted_at]),
    );
    return { csv, rows: rows.length };
  }

  async ordersCsv(q: string | undefined): Promise<{ csv: string; rows: number }> {
    const rows = await this.orderRows.byEmail.upTo(likePattern(q), EXPORT_ROW_LIMIT);
    const header = ['id', 'email', 'name', 'plan', 'amount', 'currency', 'status', 'source', 'referral', 'created_at', 'paid_at'];
    const csv = toCsv(
      header,
      rows.map((r) => [
        r.id,
        r.email,
        r.name,
        r.plan_id,
        (r.amount_cents / minorUnitsPerMajor(r.currency)).toFixed(minorUnitDigits(r.currency)),
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
}
