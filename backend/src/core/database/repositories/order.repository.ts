import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { JOBS } from '@contracts/jobs';
import type { PaymentProviderName } from '@contracts/payments';
import type { PaymentKind, PlanId } from '@contracts/plans';
import { owe } from '../../queue/owe';
import { advance, isPaid, OrderStatus } from '../../payments/order-state';

/** An `orders` row as raw SQL returns it. */
export interface OrderRow {
  id: string;
  plan_id: PlanId;
  kind: PaymentKind;
  amount_cents: number;
  currency: string;
  email: string;
  email_normalized: string;
  name: string;
  source: string;
  referral: string | null;
  provider: PaymentProviderName;
  setup_intent_id: string | null;
  payment_intent_id: string | null;
  customer_id: string | null;
  subscription_id: string | null;
  payment_method_id: string | null;
  status: OrderStatus;
  purchase_event_id: string;
}

export interface NewOrder {
  planId: PlanId;
  kind: PaymentKind;
  amountCents: number;
  currency: string;
  email: string;
  emailNormalized: string;
  name: string;
  source: string;
  referral: string | null;
  invitationTokenHash: string | null;
  /** Attribution read from this request's cookies; the lead's stored values take precedence. */
  requestAttribution: Record<string, string>;
  provider: PaymentProviderName;
}

export type ProviderIds = Partial<
  Pick<OrderRow, 'setup_intent_id' | 'payment_intent_id' | 'customer_id' | 'subscription_id' | 'payment_method_id'>
>;

const COLUMNS = `id, plan_id, kind, amount_cents, currency, email, email_normalized, name, source, referral, provider,
  setup_intent_id, payment_intent_id, customer_id, subscription_id, payment_method_id, status, purchase_event_id`;

const ID_COLUMNS = new Set(['setup_intent_id', 'payment_intent_id', 'customer_id', 'subscription_id', 'payment_method_id']);

@Injectable()
export class OrderRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * A new checkout attempt. When the e-mail belongs to a lead, the order keeps the lead's
   * referral and attribution (tid, `_ga`, fbp/fbc) for the affiliate sale and the server-side
   * Purchase; otherwise the request's.
   */
  async create(order: NewOrder): Promise<OrderRow> {
    const [row]: OrderRow[] = await this.dataSource.query(
      `INSERT INTO orders (plan_id, kind, amount_cents, currency, email, email_normalized, name, source, referral,
                           invitation_token_hash, lead_id, attribution, provider)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9, l.referral), $10, l.id, $11::jsonb || COALESCE(l.attribution, '{}'::jsonb), $12
         FROM (SELECT 1) AS one LEFT JOIN leads l ON l.email_normalized = $6
       RETURNING ${COLUMNS}`,
      [
        order.planId,
        order.kind,
        order.amountCents,
        order.currency,
        order.email,
        order.emailNormalized,
        order.name,
        order.source,
        order.referral,
        order.invitationTokenHash,
        JSON.stringify(order.requestAttribution),
        order.provider,
      ],
    );
    return row;
  }

  async setProviderIds(orderId: string, ids: ProviderIds): Promise<void> {
    const entries = Object.entries(ids).filter(([column, value]) => ID_COLUMNS.has(column) && value !== undefined);
    if (entries.length === 0) return;
    const sets = entries.map(([column], i) => `${column} = $${i + 2}`).join(', ');
    await this.dataSource.query(`UPDATE orders SET ${sets}, updated_at = now() WHERE id = $1`, [orderId, ...entries.map(([, v]) => v)]);
  }

  async findBy(column: 'setup_intent_id' | 'payment_intent_id' | 'subscription_id', id: string): Promise<OrderRow | null> {
    const [row]: OrderRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM orders WHERE ${column} = $1`, [id]);
    return row ?? null;
  }

  /** A previous order's provider customer for this e-mail, so one buyer stays one customer. */
  async customerFor(provider: PaymentProviderName, emailNormalized: string): Promise<string | null> {
    const [row]: Array<{ customer_id: string }> = await this.dataSource.query(
      `SELECT customer_id FROM orders WHERE email_normalized = $1 AND provider = $2 AND customer_id IS NOT NULL ORDER BY created_at LIMIT 1`,
      [emailNormalized, provider],
    );
    return row?.customer_id ?? null;
  }

  /**
   * Claims the right to read the provider for this order now: true for one caller per
   * `intervalMs`, across every API instance (the row is the lock).
   */
  async claimRefresh(orderId: string, intervalMs: number): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [, claimed]: [unknown[], number] = await this.dataSource.query(
      `UPDATE orders SET last_refreshed_at = now()
        WHERE id = $1 AND (last_refreshed_at IS NULL OR last_refreshed_at < now() - make_interval(secs => $2::float8 / 1000))
       RETURNING id`,
      [orderId, intervalMs],
    );
    return claimed === 1;
  }

  async applyStatus(orderId: string, learned: OrderStatus): Promise<OrderStatus | null> {
    return this.dataSource.transaction((manager) => applyOrderStatus(manager, orderId, learned));
  }
}

/**
 * Moves an order to `learned` if its state machine allows it, in the caller's transaction (the
 * row is locked, so a webhook and a verification refresh cannot both act on one old status).
 * The first time an order is paid, the paid side effects are owed in the same transaction, so
 * they happen exactly when the payment is recorded, whichever path learned of it first. Used by
 * the API's verification refresh and by the worker's webhook application alike.
 * Resolves with the order's status afterwards (null: no such order).
 */
export async function applyOrderStatus(manager: EntityManager, orderId: string, learned: OrderStatus): Promise<OrderStatus | null> {
  const [row]: Array<{ kind: PaymentKind; status: OrderStatus; paid_at: Date | null }> = await manager.query(
    `SELECT kind, status, paid_at FROM orders WHERE id = $1 FOR UPDATE`,
    [orderId],
  );
  if (!row) return null;
  const next = advance(row.kind, row.status, learned);
  if (next === row.status) return next;
  const firstPaid = isPaid(next) && row.paid_at === null;
  await manager.query(
    `UPDATE orders SET status = $2, paid_at = CASE WHEN $3 THEN now() ELSE paid_at END, updated_at = now() WHERE id = $1`,
    [orderId, next, firstPaid],
  );
  if (firstPaid) await owe(manager, [{ name: JOBS.orderPaid, data: { orderId } }]);
  return next;
}
