import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { JOBS } from '@contracts/jobs';
import { owe } from '../../queue/owe';
import type { DisputeOutcome, RefundState } from '../../payments/payment-gateway';
import { refundEndsAccess, type RefundReason } from '../../orders/refund-access';
import type { TableColumns } from '../personal-data';
import type { OrderRow, PaymentRow } from './order.repository';
import { affectedRows, containsPattern } from './sql-results';
import { syncMembership } from './membership.repository';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Refunds that count against what is left of a payment. */
const HELD = `('requested', 'pending', 'succeeded')`;
const RANK: Readonly<Record<RefundStatus, number>> = { requested: 0, pending: 1, succeeded: 2, failed: 2, canceled: 2 };

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
              count(*) OVER () AS total,
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
    request: { paymentId: string; requestKey: string; amountCents?: number; adminId: string },
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
      const amount = request.amountCents ?? left;
      if (amount > left) {
        throw new RefundRefusedError(`A refund of this payment can be at most ${dollars(left)}, what is left of it.`);
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

  /** Records a refund as the provider reported it (see recordRefund), in a transaction of its own. */
  record(refund: ProviderRefund): Promise<RefundRow> {
    return this.dataSource.transaction((manager) => recordRefund(manager, refund));
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

  /** Records where a dispute stands now (see recordDispute), in a transaction of its own. */
  recordDispute(dispute: ProviderDispute): Promise<DisputeRow | null> {
    return this.dataSource.transaction((manager) => recordDispute(manager, dispute));
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
}

/**
 * Records a refund once, in the caller's transaction, holding its payment's lock: by the
 * provider's refund id, else by the admin request's key it carries (the webhook of our own refund
 * may arrive before the request records the provider's answer), else as a new refund (made in the
 * provider's dashboard, or a lost dispute). Its status only moves forward. When it succeeds now,
 * the order's refunded total grows, the access decision is taken (endAccessForRefund) and the
 * refund's effects are owed (`refund-recorded`), all in this transaction: exactly once.
 */
export async function recordRefund(manager: EntityManager, refund: ProviderRefund): Promise<RefundRow> {
  const [payment]: PaymentRow[] = await manager.query(`SELECT * FROM payments WHERE id = $1 FOR UPDATE`, [refund.paymentId]);
  if (!payment) throw new Error(`No payment ${refund.paymentId} to record a refund of`);
  const requestKey = refund.requestKey && UUID.test(refund.requestKey) ? refund.requestKey : null;
  const [existing]: RefundRow[] = await manager.query(
    `SELECT * FROM refunds WHERE provider_refund_id = $1 OR (provider_refund_id IS NULL AND request_key = $2::uuid) LIMIT 1`,
    [refund.providerRefundId, requestKey],
  );
  let row: RefundRow;
  if (existing) {
    const status = RANK[refund.state] > RANK[existing.status] ? refund.state : existing.status;
    const [[updated]]: [RefundRow[], number] = await manager.query(
      `UPDATE refunds SET provider_refund_id = COALESCE(provider_refund_id, $2), status = $3,
              amount_cents = CASE WHEN status = 'succeeded' THEN amount_cents ELSE $4 END, updated_at = now()
        WHERE id = $1 RETURNING *`,
      [existing.id, refund.providerRefundId, status, refund.amountCents],
    );
    row = updated;
  } else {
    [row] = await manager.query(
      `INSERT INTO refunds (order_id, payment_id, request_key, provider_refund_id, reason, amount_cents, currency, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [payment.order_id, payment.id, requestKey, refund.providerRefundId, refund.reason, refund.amountCents, refund.currency, refund.state],
    );
  }
  if (row.status !== 'succeeded' || existing?.status === 'succeeded') return row;
  await manager.query(`UPDATE orders SET refunded_cents = refunded_cents + $2, updated_at = now() WHERE id = $1`, [
    payment.order_id,
    row.amount_cents,
  ]);
  if (await endAccessForRefund(manager, payment, refund.reason)) {
    await manager.query(`UPDATE refunds SET ends_access = true WHERE id = $1`, [row.id]);
    row.ends_access = true;
  }
  await owe(manager, [{ name: JOBS.refundRecorded, data: { refundId: row.id } }]);
  return row;
}

/**
 * Ends the order's access now (orders.access_revoked_at) when money going back for `payment`
 * says so (refundEndsAccess), in the caller's transaction. True when it ended now (not before):
 * the caller then cancels the subscription at once, and the buyer's membership is brought up to date.
 */
export async function endAccessForRefund(manager: EntityManager, payment: PaymentRow, reason: RefundReason): Promise<boolean> {
  const refunded = await succeededOf(manager, payment.id);
  if (!refundEndsAccess(reason, payment.amount_cents, refunded)) return false;
  const result: unknown = await manager.query(
    `UPDATE orders SET access_revoked_at = now(), updated_at = now() WHERE id = $1 AND access_revoked_at IS NULL`,
    [payment.order_id],
  );
  if (affectedRows(result) !== 1) return false;
  // The buyer's membership of the product loses this order's access (another paid order may keep it).
  await syncMembership(manager, payment.order_id);
  return true;
}

/**
 * Records where a dispute stands, in the caller's transaction holding its payment's lock. A new
 * status (won and lost are final) moves the order's dispute_status and owes the owner's e-mail
 * (`dispute-changed`); a lost dispute is recorded as a refund of what is left of the disputed
 * amount (reason 'dispute'), with a refund's effects, once. Null when nothing changed.
 */
export async function recordDispute(manager: EntityManager, dispute: ProviderDispute): Promise<DisputeRow | null> {
  const [payment]: PaymentRow[] = await manager.query(`SELECT * FROM payments WHERE id = $1 FOR UPDATE`, [dispute.paymentId]);
  if (!payment) throw new Error(`No payment ${dispute.paymentId} to record a dispute of`);
  const [existing]: DisputeRow[] = await manager.query(`SELECT * FROM disputes WHERE provider_dispute_id = $1`, [
    dispute.providerDisputeId,
  ]);
  if (existing && (existing.status === dispute.outcome || existing.status !== 'disputed')) return null;
  const [row]: DisputeRow[] = await manager.query(
    `INSERT INTO disputes (order_id, payment_id, provider_dispute_id, status, amount_cents, currency)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (provider_dispute_id) DO UPDATE SET status = EXCLUDED.status, amount_cents = EXCLUDED.amount_cents, updated_at = now()
     RETURNING *`,
    [payment.order_id, payment.id, dispute.providerDisputeId, dispute.outcome, dispute.amountCents, dispute.currency],
  );
  await manager.query(`UPDATE orders SET dispute_status = $2, updated_at = now() WHERE id = $1`, [payment.order_id, dispute.outcome]);
  await owe(manager, [{ name: JOBS.disputeChanged, data: { disputeId: row.id, status: dispute.outcome } }]);
  if (dispute.outcome === 'lost') {
    const left = payment.amount_cents - (await succeededOf(manager, payment.id));
    const amountCents = Math.min(dispute.amountCents, left);
    // Nothing left to take back (refunded in full before): that refund has ended the access already.
    if (amountCents > 0) {
      await recordRefund(manager, {
        paymentId: payment.id,
        requestKey: null,
        providerRefundId: dispute.providerDisputeId,
        amountCents,
        currency: dispute.currency,
        state: 'succeeded',
        reason: 'dispute',
      });
    }
  }
  return row;
}

async function heldOf(manager: EntityManager, paymentId: string): Promise<number> {
  const [{ held }]: Array<{ held: number }> = await manager.query(
    `SELECT COALESCE(sum(amount_cents), 0)::int AS held FROM refunds WHERE payment_id = $1 AND status IN ${HELD}`,
    [paymentId],
  );
  return held;
}

async function succeededOf(manager: EntityManager, paymentId: string): Promise<number> {
  const [{ refunded }]: Array<{ refunded: number }> = await manager.query(
    `SELECT COALESCE(sum(amount_cents), 0)::int AS refunded FROM refunds WHERE payment_id = $1 AND status = 'succeeded'`,
    [paymentId],
  );
  return refunded;
}

const dollars = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
