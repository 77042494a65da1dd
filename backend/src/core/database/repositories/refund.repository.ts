import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { formatMoney } from '@contracts/money';
import type { DisputeOutcome, RefundState } from '@contracts/payments';
import type { SqlExecutor, TableColumns } from '../personal-data';
import type { OrderRow } from './order-rows';
import type { PaymentRow } from './payment.repository';
import { containsPattern } from './sql-results';

/** Why money went back to a buyer: a refund (made from admin or in the provider's dashboard) or a lost dispute. */
export type RefundReason = 'refund' | 'dispute';

/** A refund's status: `requested` while the admin's request waits for the provider's answer, then the provider's word. */
export type RefundStatus = 'requested' | RefundState;

/** A `refunds` row: money sent back for one payment, made from admin, in the provider's dashboard, or by a lost dispute. */
export interface RefundRow {
  id: string;
  order_id: string;
  payment_id: string;
  /** The admin request's key (a UUID the dialog made); null for a refund made elsewhere. */
  request_key: string | null;
  /** The admin who asked for it; null for a refund made elsewhere, or once their account is removed. */
  requested_by_admin_id: string | null;
  /** Null only while an admin request waits for the provider's answer. */
  provider_refund_id: string | null;
  reason: RefundReason;
  amount_cents: number;
  currency: string;
  status: RefundStatus;
  /** This refund ended the membership's access (orders.access_revoked_at): its subscription is canceled at once. */
  ends_access: boolean;
  /** What became of each effect, by side-effect kind: 'sent', 'skipped: …', 'failed: …'. */
  effects: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

/** A `disputes` row: a chargeback of one payment, where it stands now. */
export interface DisputeRow {
  id: string;
  order_id: string;
  payment_id: string;
  provider_dispute_id: string;
  status: DisputeOutcome;
  amount_cents: number;
  currency: string;
  /** What became of the owner's e-mail about each status ('owner-email:<status>'). */
  effects: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export const REFUND_TABLES: readonly TableColumns[] = [
  // Amounts, provider ids and outcomes, found through their order: no person in them.
  { table: 'refunds', personal: [], notPersonal: ['provider_refund_id', 'reason', 'currency', 'status', 'effects'] },
  { table: 'disputes', personal: [], notPersonal: ['provider_dispute_id', 'status', 'currency', 'effects'] },
];

/** A refund request the admin can act on (more than is left, unknown payment); its message becomes the 4xx's. */
export class RefundRefusedError extends Error {
  constructor(
    message: string,
    readonly notFound = false,
  ) {
    super(message);
  }
}

/** A refund as the provider reported it, for the payment (`payments.id`) it refunds. */
export interface ProviderRefund {
  paymentId: string;
  requestKey: string | null;
  providerRefundId: string;
  amountCents: number;
  currency: string;
  state: RefundState;
  reason: RefundReason;
}

export interface ProviderDispute {
  paymentId: string;
  providerDisputeId: string;
  outcome: DisputeOutcome;
  amountCents: number;
  currency: string;
}

/** What the admin's refund request found or started: the payment and order it refunds. */
export interface BegunRefund {
  refund: RefundRow;
  payment: PaymentRow;
  orderId: string;
  /** False when the request's key had been used before: its refund is answered as it is. */
  created: boolean;
}

/** The admin's orders list: an order with its payments, each with its refunds. */
export interface AdminOrderListing extends Pick<
  OrderRow,
  | 'id'
  | 'email'
  | 'name'
  | 'plan_id'
  | 'kind'
  | 'amount_cents'
  | 'currency'
  | 'status'
  | 'provider'
  | 'livemode'
  | 'created_at'
  | 'paid_at'
  | 'instalments'
  | 'instalments_stopped_at'
  | 'bump_plan_id'
  | 'bump_amount_cents'
> {
  refunded_cents: number;
  access_revoked_at: Date | null;
  dispute_status: DisputeOutcome | null;
  total: string;
  payments: Array<{
    id: string;
    sequence: number;
    amountCents: number;
    currency: string;
    paidAt: string;
    providerPaymentId: string;
    refundedCents: number;
    refunds: Array<{
      id: string;
      amountCents: number;
      status: RefundStatus;
      reason: RefundReason;
      createdAt: string;
      /** The e-mail of the admin who asked for it. */
      requestedBy: string | null;
    }>;
  }>;
}

/** The effects job's view of a refund: with its order and payment. */
export interface RefundForEffects {
  refund: RefundRow;
  order: OrderRow;
  payment: PaymentRow;
}

/**
 * What the add-on (order bump) of a payment's order charged, the payment being the order's first
 * (which included it): the amount of a refund of the add-on alone.
 */
async function bumpOf(sql: SqlExecutor, payment: PaymentRow): Promise<number> {
  const [order]: Array<Pick<OrderRow, 'bump_amount_cents'>> = await sql.query(`SELECT bump_amount_cents FROM orders WHERE id = $1`, [payment.order_id]);
  if (payment.sequence !== 1 || !order?.bump_amount_cents) throw new RefundRefusedError('This payment did not include an add-on to refund.');
  return order.bump_amount_cents;
}

/** Refunds that count against what is left of a payment. */
const HELD = `('requested', 'pending', 'succeeded')`;

/** Refunds and disputes of orders' payments. */
@Injectable()
export class RefundRepository {
  readonly tables = REFUND_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  /** Orders newest first, matching part of the e-mail or the whole order id, each with its payments and their refunds. */
  adminOrders(q: string, limit: number, offset: number): Promise<AdminOrderListing[]> {
    return this.dataSource.query<AdminOrderListing[]>(
      `SELECT o.id, o.email, o.name, o.plan_id, o.kind, o.amount_cents, o.currency, o.status, o.provider, o.livemode, o.created_at,
              o.paid_at, o.refunded_cents, o.access_revoked_at, o.dispute_status, o.instalments, o.instalments_stopped_at,
              o.bump_plan_id, o.bump_amount_cents, count(*) OVER () AS total,
              COALESCE((
                SELECT json_agg(json_build_object(
                         'id', p.id, 'sequence', p.sequence, 'amountCents', p.amount_cents, 'currency', p.currency, 'paidAt', p.paid_at,
                         'providerPaymentId', p.provider_payment_id,
                         'refundedCents', (SELECT COALESCE(sum(r.amount_cents), 0) FROM refunds r WHERE r.payment_id = p.id AND r.status IN ${HELD}),
                         'refunds', COALESCE((
                           SELECT json_agg(json_build_object('id', r.id, 'amountCents', r.amount_cents, 'status', r.status, 'reason', r.reason,
                                                             'createdAt', r.created_at, 'requestedBy', a.email) ORDER BY r.created_at, r.id)
                             FROM refunds r LEFT JOIN admin_accounts a ON a.id = r.requested_by_admin_id
                            WHERE r.payment_id = p.id), '[]'::json)
                       ) ORDER BY p.sequence)
                  FROM payments p WHERE p.order_id = o.id), '[]'::json) AS payments
         FROM orders o
        WHERE $1 = '' OR o.email_normalized LIKE $2 OR o.id::text = $1
        ORDER BY o.created_at DESC, o.id LIMIT $3 OFFSET $4`,
      [q, containsPattern(q), limit, offset],
    );
  }

  async countAdminOrders(q: string): Promise<number> {
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM orders o WHERE $1 = '' OR o.email_normalized LIKE $2 OR o.id::text = $1`,
      [q, containsPattern(q)],
    );
    return total;
  }

  /**
   * Starts the admin's refund request under its key, in one transaction holding the payment's
   * lock: a key used before answers with its refund; otherwise the amount (what is left of the
   * payment when none is given) is checked against what is left and held as a `requested` refund
   * in the admin's name, and `alsoInTransaction` (the audit entry of that refund) is written with it.
   */
  begin(
    request: { paymentId: string; requestKey: string; amountCents?: number; line?: 'bump'; adminId: string },
    alsoInTransaction: (manager: EntityManager, refund: RefundRow) => Promise<void>,
  ): Promise<BegunRefund> {
    return this.dataSource.transaction(async (manager) => {
      const [payment]: PaymentRow[] = await manager.query(`SELECT * FROM payments WHERE id = $1 FOR UPDATE`, [request.paymentId]);
      if (!payment) throw new RefundRefusedError('There is no payment with this id.', true);
      const [earlier]: RefundRow[] = await manager.query(`SELECT * FROM refunds WHERE request_key = $1`, [request.requestKey]);
      if (earlier) {
        if (earlier.payment_id !== payment.id) throw new RefundRefusedError('This request key was already used for another payment.');
        return { refund: earlier, payment, orderId: payment.order_id, created: false };
      }
      const left = payment.amount_cents - (await heldOf(manager, payment.id));
      if (left <= 0) throw new RefundRefusedError('This payment has already been refunded in full.');
      const amount = request.line === 'bump' ? await bumpOf(manager, payment) : (request.amountCents ?? left);
      if (amount > left) {
        throw new RefundRefusedError(`A refund of this payment can be at most ${formatMoney(left, payment.currency, { decimals: 'always' })}, what is left of it.`);
      }
      const [refund]: RefundRow[] = await manager.query(
        `INSERT INTO refunds (order_id, payment_id, request_key, requested_by_admin_id, amount_cents, currency, status)
         VALUES ($1, $2, $3, $4, $5, $6, 'requested') RETURNING *`,
        [payment.order_id, payment.id, request.requestKey, request.adminId, amount, payment.currency],
      );
      await alsoInTransaction(manager, refund);
      return { refund, payment, orderId: payment.order_id, created: true };
    });
  }

  /** Lets go of a request the provider refused for good, so what it held is left again. */
  async forgetRequest(refundId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM refunds WHERE id = $1 AND status = 'requested'`, [refundId]);
  }

  /** The payment the provider knows by one of `ids`, the first of them that is held (see Refund.paymentIds). */
  async paymentByProviderIds(ids: string[]): Promise<PaymentRow | null> {
    if (ids.length === 0) return null;
    const [row]: PaymentRow[] = await this.dataSource.query(
      `SELECT * FROM payments WHERE provider_payment_id = ANY($1::text[]) ORDER BY array_position($1::text[], provider_payment_id) LIMIT 1`,
      [ids],
    );
    return row ?? null;
  }

  async forEffects(refundId: string): Promise<RefundForEffects | null> {
    const [refund]: RefundRow[] = await this.dataSource.query(`SELECT * FROM refunds WHERE id = $1`, [refundId]);
    if (!refund) return null;
    const [order]: OrderRow[] = await this.dataSource.query(`SELECT * FROM orders WHERE id = $1`, [refund.order_id]);
    const [payment]: PaymentRow[] = await this.dataSource.query(`SELECT * FROM payments WHERE id = $1`, [refund.payment_id]);
    return { refund, order, payment };
  }

  async recordEffect(refundId: string, kind: string, status: string): Promise<void> {
    await this.dataSource.query(`UPDATE refunds SET effects = effects || jsonb_build_object($2::text, $3::text) WHERE id = $1`, [
      refundId,
      kind,
      status,
    ]);
  }

  async findDispute(disputeId: string): Promise<(DisputeRow & { order_email: string; plan_id: string; livemode: boolean }) | null> {
    const [row]: Array<DisputeRow & { order_email: string; plan_id: string; livemode: boolean }> = await this.dataSource.query(
      `SELECT d.*, o.email AS order_email, o.plan_id, o.livemode FROM disputes d JOIN orders o ON o.id = d.order_id WHERE d.id = $1`,
      [disputeId],
    );
    return row ?? null;
  }

  async recordDisputeEffect(disputeId: string, key: string, status: string): Promise<void> {
    await this.dataSource.query(`UPDATE disputes SET effects = effects || jsonb_build_object($2::text, $3::text) WHERE id = $1`, [
      disputeId,
      key,
      status,
    ]);
  }

  /** Locks a payment (refunds and disputes of one payment take turns), in the caller's transaction. */
  async lockPayment(sql: SqlExecutor, paymentId: string): Promise<PaymentRow | null> {
    const [payment]: PaymentRow[] = await sql.query(`SELECT * FROM payments WHERE id = $1 FOR UPDATE`, [paymentId]);
    return payment ?? null;
  }

  /** The refund recorded under the provider's refund id, else the admin request's key it carries. */
  async findRecorded(sql: SqlExecutor, providerRefundId: string, requestKey: string | null): Promise<RefundRow | null> {
    const [existing]: RefundRow[] = await sql.query(
      `SELECT * FROM refunds WHERE provider_refund_id = $1 OR (provider_refund_id IS NULL AND request_key = $2::uuid) LIMIT 1`,
      [providerRefundId, requestKey],
    );
    return existing ?? null;
  }

  /** Updates a recorded refund with the provider's word; the amount of a succeeded one stays. */
  async updateRecorded(
    sql: SqlExecutor,
    refundId: string,
    providerRefundId: string,
    status: RefundStatus,
    amountCents: number,
  ): Promise<RefundRow> {
    const [[updated]]: [RefundRow[], number] = await sql.query(
      `UPDATE refunds SET provider_refund_id = COALESCE(provider_refund_id, $2), status = $3,
              amount_cents = CASE WHEN status = 'succeeded' THEN amount_cents ELSE $4 END, updated_at = now()
        WHERE id = $1 RETURNING *`,
      [refundId, providerRefundId, status, amountCents],
    );
    return updated;
  }

  /** A refund of the payment first heard of from the provider (made in its dashboard, or a lost dispute). */
  async insertRecorded(sql: SqlExecutor, payment: PaymentRow, requestKey: string | null, refund: ProviderRefund): Promise<RefundRow> {
    const [row]: RefundRow[] = await sql.query(
      `INSERT INTO refunds (order_id, payment_id, request_key, provider_refund_id, reason, amount_cents, currency, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [payment.order_id, payment.id, requestKey, refund.providerRefundId, refund.reason, refund.amountCents, refund.currency, refund.state],
    );
    return row;
  }

  async markEndsAccess(sql: SqlExecutor, refundId: string): Promise<void> {
    await sql.query(`UPDATE refunds SET ends_access = true WHERE id = $1`, [refundId]);
  }

  /** What of the payment was refunded (succeeded refunds), in the caller's transaction. */
  async succeededOf(sql: SqlExecutor, paymentId: string): Promise<number> {
    const [{ refunded }]: Array<{ refunded: number }> = await sql.query(
      `SELECT COALESCE(sum(amount_cents), 0)::int AS refunded FROM refunds WHERE payment_id = $1 AND status = 'succeeded'`,
      [paymentId],
    );
    return refunded;
  }

  async disputeByProviderId(sql: SqlExecutor, providerDisputeId: string): Promise<DisputeRow | null> {
    const [existing]: DisputeRow[] = await sql.query(`SELECT * FROM disputes WHERE provider_dispute_id = $1`, [providerDisputeId]);
    return existing ?? null;
  }

  /** Records the dispute's new status (a new dispute, or a known one moving on). */
  async saveDispute(sql: SqlExecutor, payment: PaymentRow, dispute: ProviderDispute): Promise<DisputeRow> {
    const [row]: DisputeRow[] = await sql.query(
      `INSERT INTO disputes (order_id, payment_id, provider_dispute_id, status, amount_cents, currency)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (provider_dispute_id) DO UPDATE SET status = EXCLUDED.status, amount_cents = EXCLUDED.amount_cents, updated_at = now()
       RETURNING *`,
      [payment.order_id, payment.id, dispute.providerDisputeId, dispute.outcome, dispute.amountCents, dispute.currency],
    );
    return row;
  }
}

async function heldOf(manager: EntityManager, paymentId: string): Promise<number> {
  const [{ held }]: Array<{ held: number }> = await manager.query(
    `SELECT COALESCE(sum(amount_cents), 0)::int AS held FROM refunds WHERE payment_id = $1 AND status IN ${HELD}`,
    [paymentId],
  );
  return held;
}
