import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PaymentProviderName } from '@contracts/payments';
import type { PaymentKind } from '@contracts/plans';
import type { SqlExecutor, TableColumns } from '../personal-data';
import { affectedRows } from './sql-results';

/** Declared by OrderRepository, whose findPerson finds them through their order. */
export const PAYMENT_TABLES: readonly TableColumns[] = [
  // A charge's amount, provider id and what became of its effects: found through its order, no person in it.
  { table: 'payments', personal: [], notPersonal: ['provider_payment_id', 'currency', 'paid_effects'] },
  // An invoice the provider could not charge: its id, found through its order.
  { table: 'payment_failures', personal: [], notPersonal: ['provider_invoice_id'] },
];

/** A `payments` row: one successful charge of an order (its first payment, a renewal or an instalment). */
export interface PaymentRow {
  id: string;
  order_id: string;
  /** The provider's id of the charge: the first payment's order object, or the invoice of a later one. */
  provider_payment_id: string;
  /** 1 for the order's first payment, then 2, 3… in the order they were recorded. */
  sequence: number;
  amount_cents: number;
  currency: string;
  paid_at: Date;
  /** What became of each of this payment's side effects (later payments only; the first one's are on the order). */
  paid_effects: Record<string, string>;
  created_at: Date;
}

/** A later paid charge of an order, as the provider reported it. */
export interface NewPayment {
  providerPaymentId: string;
  amountCents: number;
  currency: string;
  paidAt: Date;
}

/** The charges of orders (`payments`) and the invoices the provider could not charge (`payment_failures`). */
@Injectable()
export class PaymentRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findPayment(paymentId: string): Promise<PaymentRow | null> {
    const [row]: PaymentRow[] = await this.dataSource.query(`SELECT * FROM payments WHERE id = $1`, [paymentId]);
    return row ?? null;
  }

  /** An order's payments, first first. */
  paymentsOf(orderId: string): Promise<PaymentRow[]> {
    return this.dataSource.query<PaymentRow[]>(`SELECT * FROM payments WHERE order_id = $1 ORDER BY sequence`, [orderId]);
  }

  /** Records what became of a later payment's side effects (kind → status), in one statement. */
  async recordPaymentEffects(paymentId: string, effects: Readonly<Record<string, string>>): Promise<void> {
    await this.dataSource.query(`UPDATE payments SET paid_effects = paid_effects || $2::jsonb WHERE id = $1`, [
      paymentId,
      JSON.stringify(effects),
    ]);
  }

  /**
   * Records a later paid charge of a paid order (a renewal or an instalment) once, in the caller's
   * transaction, which holds the order's row lock: the provider's id is unique, so the same invoice
   * reported twice is recorded once. Null when it was already recorded or the order is not paid
   * yet (its first payment comes first).
   */
  async insertLater(sql: SqlExecutor, orderId: string, payment: NewPayment): Promise<PaymentRow | null> {
    const [row]: PaymentRow[] = await sql.query(
      `INSERT INTO payments (order_id, provider_payment_id, sequence, amount_cents, currency, paid_at)
     SELECT o.id, $2, (SELECT COALESCE(max(sequence), 0) + 1 FROM payments WHERE order_id = o.id), $3, $4, $5
       FROM orders o WHERE o.id = $1 AND o.paid_at IS NOT NULL
     ON CONFLICT (provider_payment_id) DO NOTHING
     RETURNING *`,
      [orderId, payment.providerPaymentId, payment.amountCents, payment.currency, payment.paidAt],
    );
    return row ?? null;
  }

  /** Notes that the provider failed to charge this invoice of the order; true the first time only. */
  async noteFailure(sql: SqlExecutor, orderId: string, invoiceId: string): Promise<boolean> {
    const inserted: unknown[] = await sql.query(
      `INSERT INTO payment_failures (provider_invoice_id, order_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING provider_invoice_id`,
      [invoiceId, orderId],
    );
    return inserted.length === 1;
  }

  /**
   * First payments still recorded under their order's own id (recorded so before payment 1 took
   * the provider's id; migration 1766966400000 repaired those whose order held an id, and left a
   * NOT VALID check that keeps new ones out), oldest first, up to `limit`, after `afterId` (a
   * page's last id: rows the provider has nothing for stay, and the next page goes past them).
   */
  underOrderIds(afterId: string | null, limit: number): Promise<UnderOrderId[]> {
    return this.dataSource.query<UnderOrderId[]>(
      `SELECT p.id, p.order_id, o.kind, o.provider FROM payments p JOIN orders o ON o.id = p.order_id
        WHERE p.provider_payment_id = p.order_id::text AND ($1::uuid IS NULL OR p.id > $1)
        ORDER BY p.id LIMIT $2`,
      [afterId, limit],
    );
  }

  /** How many first payments are still recorded under their order's own id. */
  async countUnderOrderIds(): Promise<number> {
    const [row]: Array<{ n: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM payments WHERE provider_payment_id = order_id::text`,
    );
    return row.n;
  }

  /**
   * Gives a first payment recorded under its order's id the provider's id, in the caller's
   * transaction (holding the order's lock); false when it carries another id by now, or another
   * payment carries this one (provider ids are unique).
   */
  async setProviderIdOfOrderIdPayment(sql: SqlExecutor, paymentId: string, providerPaymentId: string): Promise<boolean> {
    const updated: unknown[] = await sql.query(
      `UPDATE payments SET provider_payment_id = $2
        WHERE id = $1 AND provider_payment_id = order_id::text
          AND NOT EXISTS (SELECT 1 FROM payments q WHERE q.provider_payment_id = $2)
        RETURNING id`,
      [paymentId, providerPaymentId],
    );
    return affectedRows(updated) === 1;
  }
}

/** A first payment recorded under its order's own id, with what the provider is asked by. */
export interface UnderOrderId {
  id: string;
  order_id: string;
  kind: PaymentKind;
  provider: PaymentProviderName;
}
