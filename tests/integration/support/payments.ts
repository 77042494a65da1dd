import Stripe from 'stripe';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { outboxDrained, waitFor } from './stack';

/**
 * The settings of a stack whose payments go to the Stripe fake (test-mode keys, so its orders are
 * test orders unless a spec records them live), with the checkout limits out of the way of specs
 * that buy many times from one address, and jobs given up after two minutes.
 */
export function stripeFakeEnv(stripePort: number, webhookSecret: string): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: 'sk_test_fakekey',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fakekey',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_HOST: '127.0.0.1',
    STRIPE_API_PORT: String(stripePort),
    STRIPE_API_PROTOCOL: 'http',
    TRUST_PROXY: 'true',
    RATE_LIMIT_INTENTS_PER_CLIENT: '1000',
    RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
    RATE_LIMIT_CONFIRMATIONS_PER_ORDER: '1000',
    JOB_RETRY_HORIZON_S: '120',
  };
}

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
