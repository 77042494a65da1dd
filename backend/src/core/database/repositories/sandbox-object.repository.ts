import { Injectable } from '@nestjs/common';
import type { SandboxObjectRow } from '../../payments/providers/sandbox/sandbox-events';
import type { SqlExecutor, TableColumns } from '../personal-data';

export const SANDBOX_OBJECT_TABLES: readonly TableColumns[] = [
  {
    table: 'sandbox_objects',
    personal: [],
    // The sandbox's own ids and test-card outcomes (last four digits of Stripe's published test cards).
    notPersonal: [
      'id',
      'object',
      'idempotency_key',
      'client_secret',
      'status',
      'currency',
      'customer_id',
      'payment_method_id',
      'card',
      'last_error',
    ],
  },
];

export interface NewSandboxObject {
  id: string;
  object: SandboxObjectRow['object'];
  orderId: string;
  idempotencyKey: string;
  clientSecret: string | null;
  status: string;
  amountCents: number;
  currency: string;
  customerId: string;
  paymentMethodId?: string | null;
  card?: SandboxObjectRow['card'];
  /** When it happened in the sandbox's time (see the clock); now when omitted. */
  createdAt?: Date;
}

/** A sandbox object as the event builders read it: with its order's plan. */
const COLUMNS = `s.id, s.object, s.order_id, o.plan_id, s.client_secret, s.status, s.amount_cents, s.currency, s.customer_id,
  s.payment_method_id, s.card, s.last_error, s.cancel_at_period_end, s.created_at`;

/**
 * The offline sandbox's records of intents and subscriptions (Stripe's stand-in), always in the
 * caller's transaction: SandboxStore writes each change together with the events it causes.
 */
@Injectable()
export class SandboxObjectRepository {
  /** Creates the object unless one exists under its idempotency key; resolves with the row created now (none if it existed). */
  insertOnce(sql: SqlExecutor, row: NewSandboxObject): Promise<Array<Pick<SandboxObjectRow, 'id'>>> {
    return sql.query<Array<Pick<SandboxObjectRow, 'id'>>>(
      `INSERT INTO sandbox_objects (id, object, order_id, idempotency_key, client_secret, status, amount_cents, currency, customer_id, payment_method_id, card, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, COALESCE($12::timestamptz, now()))
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
      [
        row.id,
        row.object,
        row.orderId,
        row.idempotencyKey,
        row.clientSecret,
        row.status,
        row.amountCents,
        row.currency,
        row.customerId,
        row.paymentMethodId ?? null,
        row.card ? JSON.stringify(row.card) : null,
        row.createdAt ?? null,
      ],
    );
  }

  /** Moves the sandbox's time `seconds` further ahead of the real clock (locking it); resolves with the sandbox's time now. */
  async advanceClock(sql: SqlExecutor, seconds: number): Promise<Date> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [[row]]: [Array<{ now: Date }>, number] = await sql.query(
      `UPDATE sandbox_clock SET offset_seconds = offset_seconds + $1 WHERE id RETURNING now() + make_interval(secs => offset_seconds) AS now`,
      [seconds],
    );
    return row.now;
  }

  /** Active subscriptions, oldest first, locked: the clock renews them. */
  activeSubscriptions(sql: SqlExecutor): Promise<SandboxObjectRow[]> {
    return this.select(sql, `s.object = 'subscription' AND s.status = 'active' ORDER BY s.created_at, s.id`, [], true);
  }

  /** How many objects of this kind an order holds (a subscription's renewal invoices). */
  async countForOrder(sql: SqlExecutor, object: SandboxObjectRow['object'], orderId: string): Promise<number> {
    const [row]: Array<{ n: number }> = await sql.query(
      `SELECT count(*)::int AS n FROM sandbox_objects WHERE object = $1 AND order_id = $2`,
      [object, orderId],
    );
    return row.n;
  }

  findByIdempotencyKey(sql: SqlExecutor, idempotencyKey: string): Promise<SandboxObjectRow[]> {
    return this.select(sql, 's.idempotency_key = $1', [idempotencyKey]);
  }

  find(sql: SqlExecutor, object: SandboxObjectRow['object'], id: string, lock: boolean): Promise<SandboxObjectRow[]> {
    return this.select(sql, 's.object = $1 AND s.id = $2', [object, id], lock);
  }

  findForOrder(sql: SqlExecutor, object: SandboxObjectRow['object'], orderId: string, lock: boolean): Promise<SandboxObjectRow[]> {
    return this.select(sql, 's.object = $1 AND s.order_id = $2', [object, orderId], lock);
  }

  findBySecret(sql: SqlExecutor, object: SandboxObjectRow['object'], clientSecret: string, lock: boolean): Promise<SandboxObjectRow[]> {
    return this.select(sql, 's.object = $1 AND s.client_secret = $2', [object, clientSecret], lock);
  }

  /** Every object held for a customer, oldest first. */
  findByCustomer(sql: SqlExecutor, customerId: string, lock: boolean): Promise<SandboxObjectRow[]> {
    return this.select(sql, 's.customer_id = $1 ORDER BY s.created_at, s.id', [customerId], lock);
  }

  async update(
    sql: SqlExecutor,
    id: string,
    change: Pick<SandboxObjectRow, 'status' | 'payment_method_id' | 'card' | 'last_error'>,
  ): Promise<void> {
    await sql.query(
      `UPDATE sandbox_objects SET status = $2, payment_method_id = $3, card = $4, last_error = $5, updated_at = now() WHERE id = $1`,
      [
        id,
        change.status,
        change.payment_method_id,
        change.card ? JSON.stringify(change.card) : null,
        change.last_error ? JSON.stringify(change.last_error) : null,
      ],
    );
  }

  /** Sets or clears a subscription's cancellation at the end of its current period. */
  async setCancelAtPeriodEnd(sql: SqlExecutor, id: string, cancel: boolean): Promise<void> {
    await sql.query(`UPDATE sandbox_objects SET cancel_at_period_end = $2, updated_at = now() WHERE id = $1 AND object = 'subscription'`, [
      id,
      cancel,
    ]);
  }

  private select(sql: SqlExecutor, where: string, params: unknown[], lock = false): Promise<SandboxObjectRow[]> {
    return sql.query<SandboxObjectRow[]>(
      `SELECT ${COLUMNS} FROM sandbox_objects s JOIN orders o ON o.id = s.order_id WHERE ${where}${lock ? ' FOR UPDATE OF s' : ''}`,
      params,
    );
  }
}
