import { BadRequestException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import type { AdminBillingOrder, AdminPage, AdminRefund } from '@contracts/admin';
import { normalizeEmail } from '@contracts/email';
import { AuditRepository } from '@core/database/repositories/audit.repository';
import {
  type AdminOrderListing,
  RefundRefusedError,
  RefundRepository,
  type RefundRow,
} from '@core/database/repositories/refund.repository';
import { OrderLifecycle } from '@core/orders/order-lifecycle';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { answerProviderErrors } from '../../common/provider-answers';
import { isUuid } from '@contracts/ids';

const DEFAULT_PAGE_SIZE = 20;

const PROVIDER_UNAVAILABLE_MESSAGE =
  'The payment provider did not answer. Please try again in a moment: the same request will not refund twice.';

/** A refund this admin's request made or found: a request key is one admin's dialog's, so they asked for it. */
const toRefund = (row: RefundRow, admin: { adminId: string; email: string }): AdminRefund => ({
  id: row.id,
  paymentId: row.payment_id,
  amountCents: row.amount_cents,
  status: row.status,
  reason: row.reason,
  createdAt: new Date(row.created_at).toISOString(),
  requestedBy: row.requested_by_admin_id === admin.adminId ? admin.email : null,
});

const toOrder = (row: AdminOrderListing): AdminBillingOrder => ({
  id: row.id,
  email: row.email,
  name: row.name,
  planId: row.plan_id,
  kind: row.kind,
  amountCents: row.amount_cents,
  currency: row.currency.toUpperCase(),
  status: row.status,
  provider: row.provider,
  testOrder: !row.livemode,
  createdAt: row.created_at.toISOString(),
  paidAt: row.paid_at?.toISOString() ?? null,
  refundedCents: row.refunded_cents,
  accessRevokedAt: row.access_revoked_at?.toISOString() ?? null,
  disputeStatus: row.dispute_status,
  instalments: row.instalments,
  instalmentsStoppedAt: row.instalments_stopped_at?.toISOString() ?? null,
  bump: row.bump_plan_id && row.bump_amount_cents ? { planId: row.bump_plan_id, amountCents: row.bump_amount_cents } : null,
  payments: row.payments.map((p) => ({
    id: p.id,
    sequence: p.sequence,
    amountCents: p.amountCents,
    currency: p.currency.toUpperCase(),
    paidAt: new Date(p.paidAt).toISOString(),
    providerPaymentId: p.providerPaymentId,
    refundedCents: p.refundedCents,
    refundableCents: Math.max(0, p.amountCents - p.refundedCents),
    refunds: p.refunds.map((r) => ({ ...r, paymentId: p.id, createdAt: new Date(r.createdAt).toISOString() })),
  })),
});

/**
 * The orders screen: orders with their payments and refunds, and the admin's refund of one
 * payment. A refund request is held under its key in Postgres (with its audit entry) before the
 * gateway is called with a key derived from it, and recorded with the gateway's answer: a double
 * click or a retried request refunds once, and its effects are owed once (OrderLifecycle.refundRecorded).
 */
@Injectable()
export class RefundsService {
  private readonly logger = new Logger(RefundsService.name);

  constructor(
    private readonly refunds: RefundRepository,
    private readonly lifecycle: OrderLifecycle,
    private readonly audit: AuditRepository,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  async orders(q: string | undefined, page = 1, pageSize = DEFAULT_PAGE_SIZE): Promise<AdminPage<AdminBillingOrder>> {
    const term = q?.trim() ?? '';
    const search = isUuid(term) ? term.toLowerCase() : normalizeEmail(term);
    const rows = await this.refunds.adminOrders(search, pageSize, (page - 1) * pageSize);
    const total = rows.length > 0 ? Number(rows[0].total) : page === 1 ? 0 : await this.refunds.countAdminOrders(search);
    return { items: rows.map(toOrder), total, page, pageSize };
  }

  async refund(
    paymentId: string,
    request: { requestKey: string; amountCents?: number; line?: 'bump' },
    admin: { adminId: string; email: string; clientIp: string | undefined },
  ): Promise<AdminRefund> {
    let begun;
    try {
      begun = await this.refunds.begin({ paymentId, ...request, adminId: admin.adminId }, async (manager, held) => {
        // The refund and its amount: several refunds of one payment are told apart.
        await this.audit.record(
          {
            adminId: admin.adminId,
            action: 'payment.refund',
            target: `payment:${paymentId}`,
            clientIp: admin.clientIp,
            details: { refundId: held.id, amountCents: held.amount_cents, currency: held.currency },
          },
          manager,
        );
      });
    } catch (err) {
      if (!(err instanceof RefundRefusedError)) throw err;
      throw err.notFound ? new NotFoundException(err.message) : new BadRequestException(err.message);
    }
    const { refund: held, payment, orderId } = begun;
    if (held.status !== 'requested') return toRefund(held, admin);

    const answer = await answerProviderErrors(
      () =>
        this.gateway.refund({
          orderId,
          paymentId: payment.provider_payment_id,
          amountCents: held.amount_cents,
          requestKey: held.request_key ?? request.requestKey,
        }),
      {
        refused: 400,
        onRefused: async () => {
          if (begun.created) await this.refunds.forgetRequest(held.id);
        },
        // The request stays held under its key: sent again, it resumes with the same provider key.
        unavailable: { logger: this.logger, log: { refundId: held.id }, message: PROVIDER_UNAVAILABLE_MESSAGE },
      },
    );
    const [recorded] = await this.lifecycle.refundRecorded([
      {
        paymentId: payment.id,
        requestKey: held.request_key,
        providerRefundId: answer.refundId,
        amountCents: answer.amountCents,
        currency: answer.currency,
        state: answer.state,
        reason: 'refund',
      },
    ]);
    this.logger.log({ refundId: recorded.id, paymentId: payment.id, status: recorded.status }, 'Refund recorded');
    return toRefund(recorded, admin);
  }
}
