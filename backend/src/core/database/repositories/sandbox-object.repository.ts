import { Injectable } from '@nestjs/common';
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
      'refunded_id',
    ],
  },
];

/** A sandbox_objects row, as the sandbox's event builders read it. */
export interface SandboxObjectRow {
  id: string;
  object: 'payment_intent' | 'setup_intent' | 'subscription' | 'refund' | 'invoice' | 'dispute';
  order_id: string;
  plan_id: string;
  client_secret: string | null;
  status: string;
  amount_cents: number | null;
  currency: string | null;
  customer_id: string;
  payment_method_id: string | null;
  card: { last4: string; outcome: string } | null;
  last_error: Record<string, string> | null;
  /** Subscriptions: the buyer asked for it to end at the end of its current period. */
  cancel_at_period_end: boolean;
  created_at: Date;
  /** A subscription that bills this many periods after its start and then ends (instalments); null: until canceled. */
  iterations: number | null;
  /** An invoice's failed charges so far. */
  attempt_count: number;
  /** When an unpaid invoice first failed: its retries are counted in days from then. */
  first_failed_at: Date | null;
  /** When an unpaid invoice is charged again; null when paid or given up. */
  next_attempt_at: Date | null;
  /** A subscription charged less than its price (a coupon): its price (renewals after the discounted periods); null without one. */
  full_amount_cents?: number | null;
  /** How many periods, the first included, the subscription is charged `amount_cents` before `full_amount_cents`; null: forever. */
  discounted_periods?: number | null;
  /** A subscription's one-off line on its first invoice (an order bump); null: none. */
  invoice_item_cents?: number | null;
  /** A subscription paused (the cancellation flow): periods ending before then are not charged (their invoices void). */
  pause_resumes_at?: Date | null;
  /** A subscription's one-off discount (the save offer): taken off its next charged renewal, then cleared. */
  next_renewal_off_cents?: number | null;
  idempotency_key?: string;
  /** A refund's or a dispute's: the payment (charge, subscription or invoice) whose money it takes back. */
  refunded_id?: string | null;
}

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
  /** A refund's or a dispute's: the sandbox object (charge, subscription or invoice) whose money it takes back. */
  refundedId?: string | null;
  /** A charge created declined (a one-click charge on a card that fails): the bank's reason. */
  lastError?: Record<string, string> | null;
  /** When it happened in the sandbox's time (see the clock); the sandbox's now when omitted. */
  createdAt?: Date;
  /** A subscription's number of billing periods after its start (instalments). */
  iterations?: number;
  /** An invoice created unpaid: its failed charges, when the first failed, and when the next is due. */
  attemptCount?: number;
  firstFailedAt?: Date | null;
  nextAttemptAt?: Date | null;
  /** A subscription charged less than its price (a coupon): its price, and how many periods the discount lasts (null: forever). */
  fullAmountCents?: number | null;
  discountedPeriods?: number | null;
  /** A subscription's one-off line on its first invoice (an order bump), charged with its first period; null: none. */
  invoiceItemCents?: number | null;
}

/** What the clock changes on a subscription or an invoice as it bills, retries and ends them. */
export type SandboxBillingChange = Pick<SandboxObjectRow, 'status' | 'attempt_count' | 'next_attempt_at'>;

/** What the cancellation flow's offers change on a subscription. */
export type SandboxRetentionChange = Required<Pick<SandboxObjectRow, 'pause_resumes_at' | 'next_renewal_off_cents'>>;

/** A sandbox object as the event builders read it: with its order's plan. */
const COLUMNS = `s.id, s.object, s.order_id, o.plan_id, s.client_secret, s.status, s.amount_cents, s.currency, s.customer_id,
  s.payment_method_id, s.card, s.last_error, s.created_at, s.idempotency_key, s.refunded_id, s.cancel_at_period_end, s.iterations,
  s.attempt_count, s.first_failed_at, s.next_attempt_at, s.full_amount_cents, s.discounted_periods, s.invoice_item_cents,
  s.pause_resumes_at, s.next_renewal_off_cents`;

/**
 * The offline sandbox's records of intents and subscriptions (Stripe's stand-in), always in the
 * caller's transaction: SandboxStore writes each change together with the events it causes.
 */
@Injectable()
export class SandboxObjectRepository {
  /**
   * Creates the object unless one exists under its idempotency key; resolves with the row created
   * now, read as `find` reads it (none if it existed), in the one statement.
   */
  insertOnce(sql: SqlExecutor, row: NewSandboxObject): Promise<SandboxObjectRow[]> {
    return sql.query<SandboxObjectRow[]>(
      `WITH s AS (
       INSERT INTO sandbox_objects (id, object, order_id, idempotency_key, client_secret, status, amount_cents, currency, customer_id,
                                   payment_method_id, card, created_at, iterations, attempt_count, first_failed_at, next_attempt_at,
                                   refunded_id, last_error, full_amount_cents, discounted_periods, invoice_item_cents)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
               COALESCE($12::timestamptz, now() + (SELECT make_interval(secs => offset_seconds) FROM sandbox_clock)), $13, $14, $15, $16,
               $17, $18, $19, $20, $21)
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING *
       )
       SELECT ${COLUMNS} FROM s JOIN orders o ON o.id = s.order_id`,
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
        row.iterations ?? null,
        row.attemptCount ?? 0,
        row.firstFailedAt ?? null,
        row.nextAttemptAt ?? null,
        row.refundedId ?? null,
        row.lastError ? JSON.stringify(row.lastError) : null,
        row.fullAmountCents ?? null,
        row.discountedPeriods ?? null,
        row.invoiceItemCents ?? null,
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

  /** The sandbox's time now: the real clock moved ahead by what the sandbox clock was advanced. */
  async clockNow(sql: SqlExecutor): Promise<Date> {
    const [row]: Array<{ now: Date }> = await sql.query(
      `SELECT now() + make_interval(secs => COALESCE((SELECT offset_seconds FROM sandbox_clock), 0)) AS now`,
    );
    return row.now;
  }

  /** Subscriptions still billing (active, or past due while an invoice is retried), oldest first, locked: the clock bills them. */
  billingSubscriptions(sql: SqlExecutor): Promise<SandboxObjectRow[]> {
    return this.select(sql, `s.object = 'subscription' AND s.status IN ('active', 'past_due') ORDER BY s.created_at, s.id`, [], true);
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

  /** The refunds of one payment (a charge, subscription or invoice), oldest first. */
  refundsOf(sql: SqlExecutor, refundedId: string): Promise<SandboxObjectRow[]> {
    return this.select(sql, `s.object = 'refund' AND s.refunded_id = $1 ORDER BY s.created_at, s.id`, [refundedId]);
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

  /** The newest object that holds this saved card (its sandbox `pm_…` id), with the card's test outcome. */
  findByPaymentMethod(sql: SqlExecutor, paymentMethodId: string): Promise<SandboxObjectRow[]> {
    return this.select(sql, 's.payment_method_id = $1 AND s.card IS NOT NULL ORDER BY s.created_at DESC LIMIT 1', [paymentMethodId]);
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

  /** The clock's change of a subscription's or an invoice's billing state. */
  async updateBilling(sql: SqlExecutor, id: string, change: SandboxBillingChange): Promise<void> {
    await sql.query(`UPDATE sandbox_objects SET status = $2, attempt_count = $3, next_attempt_at = $4, updated_at = now() WHERE id = $1`, [
      id,
      change.status,
      change.attempt_count,
      change.next_attempt_at,
    ]);
  }

  /** How many of an order's invoices are unpaid: open while retried, or uncollectible once given up. */
  async countUnpaidInvoices(sql: SqlExecutor, orderId: string): Promise<number> {
    const [row]: Array<{ n: number }> = await sql.query(
      `SELECT count(*)::int AS n FROM sandbox_objects WHERE object = 'invoice' AND order_id = $1 AND status IN ('open', 'uncollectible')`,
      [orderId],
    );
    return row.n;
  }

  /** Unpaid invoices of an order, oldest first, locked (at most one at a time, as the clock bills). */
  openInvoices(sql: SqlExecutor, orderId: string): Promise<SandboxObjectRow[]> {
    return this.select(sql, `s.object = 'invoice' AND s.order_id = $1 AND s.status = 'open' ORDER BY s.created_at, s.id`, [orderId], true);
  }

  /** Sets or clears a subscription's cancellation at the end of its current period. */
  async setCancelAtPeriodEnd(sql: SqlExecutor, id: string, cancel: boolean): Promise<void> {
    await sql.query(`UPDATE sandbox_objects SET cancel_at_period_end = $2, updated_at = now() WHERE id = $1 AND object = 'subscription'`, [
      id,
      cancel,
    ]);
  }

  /** Sets a subscription's pause and one-off renewal discount (the cancellation flow's offers), as the clock reads them. */
  async setRetention(sql: SqlExecutor, id: string, change: SandboxRetentionChange): Promise<void> {
    await sql.query(
      `UPDATE sandbox_objects SET pause_resumes_at = $2, next_renewal_off_cents = $3, updated_at = now() WHERE id = $1 AND object = 'subscription'`,
      [id, change.pause_resumes_at, change.next_renewal_off_cents],
    );
  }

  private select(sql: SqlExecutor, where: string, params: unknown[], lock = false): Promise<SandboxObjectRow[]> {
    return sql.query<SandboxObjectRow[]>(
      `SELECT ${COLUMNS} FROM sandbox_objects s JOIN orders o ON o.id = s.order_id WHERE ${where}${lock ? ' FOR UPDATE OF s' : ''}`,
      params,
    );
  }
}
