import Stripe from 'stripe';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { outboxDrained, waitFor } from './stack';

/** POSTs a Stripe-shaped event to the webhook endpoint, signed with `secret` as Stripe (or the sandbox) signs it. */
export function sendSignedWebhook(url: string, secret: string, event: object): Promise<request.Response> {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return request(url)
    .post('/api/webhooks/stripe')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', header)
    .send(payload)
    .expect(200);
}

export interface PaymentRow {
  provider_payment_id: string;
  sequence: number;
  amount_cents: number;
  paid_effects: Record<string, string>;
}

/** An order's payments, first to last. */
export function paymentsOf(db: DataSource, orderId: string): Promise<PaymentRow[]> {
  return db.query(`SELECT provider_payment_id, sequence, amount_cents, paid_effects FROM payments WHERE order_id = $1 ORDER BY sequence`, [
    orderId,
  ]);
}

/**
 * Waits until the order has `count` payments, every later one with its four paid effects recorded
 * (the first payment's are the order's), and nothing is left in the outbox.
 */
export async function paymentsSettled(db: DataSource, orderId: string, count: number): Promise<void> {
  await waitFor(async () => {
    const rows = await paymentsOf(db, orderId);
    return rows.length === count && rows.every((p) => p.sequence === 1 || Object.keys(p.paid_effects).length === 4);
  }, `${count} payments settled`);
  await outboxDrained(db);
}
