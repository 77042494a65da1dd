import { randomUUID } from 'node:crypto';

/** A query runner for either client: TypeORM's DataSource (integration) or node-pg's (e2e), answering rows. */
export type RowQuery = (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

export interface SeededOrder {
  orderId: string;
  /** payments.id by sequence - 1. */
  paymentIds: string[];
}

/**
 * A paid order as checkout and the lifecycle leave it: its row (paid_at = its first payment's
 * time), its first payment under the provider's subscription or charge id and each later one
 * under its invoice's id, for a membership or one-time plan, live (Stripe) or test (the sandbox).
 */
export async function seedOrder(
  query: RowQuery,
  order: {
    email: string;
    planId: string;
    kind: 'subscription' | 'one-time';
    amountCents: number;
    currency: string;
    /** ISO times of its payments, first first: each of amountCents. */
    payments: string[];
    status: string;
    livemode?: boolean;
    subscriptionState?: string | null;
    cancelAtPeriodEnd?: boolean;
    accessRevokedAt?: string | null;
    oneClickSourceId?: string | null;
    /** Invoice ids of the later payments (by index into `payments`, from 1), for those a failure names. */
    invoiceIds?: Record<number, string>;
  },
): Promise<SeededOrder> {
  const live = order.livemode ?? true;
  const tag = randomUUID().replace(/-/g, '').slice(0, 16);
  const subscriptionId = order.kind === 'subscription' ? `sub_${tag}` : null;
  const paymentIntentId = order.kind === 'one-time' ? `pi_${tag}` : null;
  const [row] = await query(
    `INSERT INTO orders (plan_id, kind, amount_cents, currency, email, email_normalized, name, source, provider, livemode, status,
                         paid_at, subscription_id, payment_intent_id, customer_id, subscription_state, cancel_at_period_end,
                         access_revoked_at, one_click_source_id, created_at)
     VALUES ($1, $2, $3, $4, $5, lower($5), 'Revenue Member', 'clear', $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $9)
     RETURNING id`,
    [
      order.planId,
      order.kind,
      order.amountCents,
      order.currency.toLowerCase(),
      order.email,
      live ? 'stripe' : 'sandbox',
      live,
      order.status,
      order.payments[0],
      subscriptionId,
      paymentIntentId,
      `cus_${tag}`,
      order.subscriptionState ?? (order.kind === 'subscription' ? order.status : null),
      order.cancelAtPeriodEnd ?? false,
      order.accessRevokedAt ?? null,
      order.oneClickSourceId ?? null,
    ],
  );
  const orderId = String(row.id);
  const paymentIds: string[] = [];
  for (const [index, paidAt] of order.payments.entries()) {
    const providerId = index === 0 ? (subscriptionId ?? paymentIntentId) : (order.invoiceIds?.[index] ?? `in_${tag}_${index}`);
    const [payment] = await query(
      `INSERT INTO payments (order_id, provider_payment_id, sequence, amount_cents, currency, paid_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [orderId, providerId, index + 1, order.amountCents, order.currency.toLowerCase(), paidAt],
    );
    paymentIds.push(String(payment.id));
  }
  return { orderId, paymentIds };
}

/** An invoice of the order the provider failed to charge (payment_failures, as the lifecycle notes it once). */
export async function seedFailure(query: RowQuery, orderId: string, invoiceId: string, at: string): Promise<void> {
  await query(`INSERT INTO payment_failures (provider_invoice_id, order_id, created_at) VALUES ($1, $2, $3)`, [invoiceId, orderId, at]);
}

/** A succeeded refund of one payment: an admin's or the provider's ('refund'), or a lost dispute ('dispute'). */
export async function seedRefund(
  query: RowQuery,
  refund: {
    orderId: string;
    paymentId: string;
    amountCents: number;
    currency: string;
    at: string;
    reason?: 'refund' | 'dispute';
    endsAccess?: boolean;
  },
): Promise<void> {
  await query(
    `INSERT INTO refunds (order_id, payment_id, provider_refund_id, reason, amount_cents, currency, status, ends_access, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'succeeded', $7, $8, $8)`,
    [
      refund.orderId,
      refund.paymentId,
      `re_${randomUUID()}`,
      refund.reason ?? 'refund',
      refund.amountCents,
      refund.currency.toLowerCase(),
      refund.endsAccess ?? false,
      refund.at,
    ],
  );
  await query(`UPDATE orders SET refunded_cents = refunded_cents + $2 WHERE id = $1`, [refund.orderId, refund.amountCents]);
}

/** A dispute of one payment and where it stands. */
export async function seedDispute(
  query: RowQuery,
  dispute: { orderId: string; paymentId: string; amountCents: number; currency: string; at: string; status: 'disputed' | 'won' | 'lost' },
): Promise<void> {
  await query(
    `INSERT INTO disputes (order_id, payment_id, provider_dispute_id, status, amount_cents, currency, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
    [
      dispute.orderId,
      dispute.paymentId,
      `dp_${randomUUID()}`,
      dispute.status,
      dispute.amountCents,
      dispute.currency.toLowerCase(),
      dispute.at,
    ],
  );
  await query(`UPDATE orders SET dispute_status = $2 WHERE id = $1`, [dispute.orderId, dispute.status]);
}

/** The buyer's membership of a product, decided by one of their orders. */
export async function seedMembership(
  query: RowQuery,
  membership: { email: string; product: string; status: 'active' | 'canceling' | 'past_due' | 'ended'; orderId: string; grantedAt: string },
): Promise<void> {
  await query(
    `INSERT INTO memberships (email_normalized, product, status, order_id, granted_at, ended_at)
     VALUES (lower($1), $2, $3, $4, $5, CASE WHEN $3 = 'ended' THEN $5::timestamptz END)`,
    [membership.email, membership.product, membership.status, membership.orderId, membership.grantedAt],
  );
}

/**
 * The cancellation flow's pause as the lifecycle stores it: the answer with outcome 'paused', its
 * months and end, taken at `at`, and the order's pause.
 */
export async function seedPause(query: RowQuery, pause: { orderId: string; at: string; months: number; resumesAt: string }): Promise<void> {
  await query(
    `INSERT INTO cancellation_feedback (order_id, reason, outcome, pause_months, resumes_at, created_at)
     VALUES ($1, 'not_using', 'paused', $2, $3, $4)`,
    [pause.orderId, pause.months, pause.resumesAt, pause.at],
  );
  await query(`UPDATE orders SET paused_until = $2 WHERE id = $1`, [pause.orderId, pause.resumesAt]);
}

/** 'No thanks, cancel' in the cancellation flow at `at`: the answer with outcome 'canceled'. */
export async function seedCancellation(query: RowQuery, cancellation: { orderId: string; at: string }): Promise<void> {
  await query(`INSERT INTO cancellation_feedback (order_id, reason, outcome, created_at) VALUES ($1, 'too_expensive', 'canceled', $2)`, [
    cancellation.orderId,
    cancellation.at,
  ]);
}
