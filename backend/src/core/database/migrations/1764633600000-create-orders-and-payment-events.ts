import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Checkout: one `orders` row per attempt, the webhook events received (`payment_events`, the
 * provider's event id unique so a redelivery is stored once) and the offline sandbox's own
 * intents and subscriptions (`sandbox_objects`), which stand in for Stripe's records.
 */
export class CreateOrdersAndPaymentEvents1764633600000 implements MigrationInterface {
  name = 'CreateOrdersAndPaymentEvents1764633600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE orders (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        plan_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('subscription', 'one-time')),
        amount_cents int NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL,
        email text NOT NULL,
        email_normalized text NOT NULL,
        name text NOT NULL,
        source text NOT NULL,
        referral text,
        invitation_token_hash text,
        lead_id uuid REFERENCES leads(id) ON DELETE SET NULL,
        attribution jsonb NOT NULL DEFAULT '{}',
        provider text NOT NULL CHECK (provider IN ('stripe', 'sandbox')),
        setup_intent_id text,
        payment_intent_id text,
        customer_id text,
        subscription_id text,
        payment_method_id text,
        status text NOT NULL DEFAULT 'created' CHECK (status IN
          ('created', 'requires_action', 'processing', 'succeeded', 'failed', 'canceled', 'incomplete', 'active', 'past_due')),
        purchase_event_id uuid NOT NULL DEFAULT gen_random_uuid(),
        paid_at timestamptz,
        last_refreshed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX ux_orders_setup_intent ON orders (setup_intent_id) WHERE setup_intent_id IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX ux_orders_payment_intent ON orders (payment_intent_id) WHERE payment_intent_id IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX ux_orders_subscription ON orders (subscription_id) WHERE subscription_id IS NOT NULL`);
    await q.query(`CREATE INDEX ix_orders_email ON orders (email_normalized, created_at)`);

    await q.query(`
      CREATE TABLE payment_events (
        id text PRIMARY KEY,
        type text NOT NULL,
        payload jsonb NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        applied_at timestamptz
      )`);

    await q.query(`
      CREATE TABLE sandbox_objects (
        id text PRIMARY KEY,
        object text NOT NULL CHECK (object IN ('payment_intent', 'setup_intent', 'subscription')),
        order_id uuid NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
        idempotency_key text NOT NULL UNIQUE,
        client_secret text UNIQUE,
        status text NOT NULL,
        amount_cents int,
        currency text,
        customer_id text NOT NULL,
        payment_method_id text,
        card jsonb,
        last_error jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_objects`);
    await q.query(`DROP TABLE payment_events`);
    await q.query(`DROP TABLE orders`);
  }
}
