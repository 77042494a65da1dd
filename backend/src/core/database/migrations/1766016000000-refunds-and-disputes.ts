import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refunds and disputes of an order's payments. A refund is recorded once: by the admin request's
 * key (a double click or a retried request is the same refund) and by the provider's refund id (a
 * refund made in the provider's dashboard, reported by webhook, or the webhook of our own refund).
 * A lost dispute is recorded as a refund of the disputed amount (reason 'dispute'), so it has a
 * refund's effects once. The order keeps what was refunded, when its access was ended, and where
 * its dispute stands; the sandbox's refunds name the payment they refund.
 */
export class RefundsAndDisputes1766016000000 implements MigrationInterface {
  name = 'RefundsAndDisputes1766016000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE orders
        ADD COLUMN refunded_cents integer NOT NULL DEFAULT 0,
        ADD COLUMN access_revoked_at timestamptz,
        ADD COLUMN dispute_status text CHECK (dispute_status IN ('disputed', 'won', 'lost'))`);
    await q.query(`
      CREATE TABLE refunds (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        order_id uuid NOT NULL REFERENCES orders(id),
        payment_id uuid NOT NULL REFERENCES payments(id),
        request_key uuid UNIQUE,
        provider_refund_id text UNIQUE,
        reason text NOT NULL DEFAULT 'refund' CHECK (reason IN ('refund', 'dispute')),
        amount_cents integer NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL,
        status text NOT NULL CHECK (status IN ('requested', 'pending', 'succeeded', 'failed', 'canceled')),
        ends_access boolean NOT NULL DEFAULT false,
        effects jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (request_key IS NOT NULL OR provider_refund_id IS NOT NULL)
      )`);
    await q.query(`CREATE INDEX refunds_payment_idx ON refunds (payment_id)`);
    await q.query(`CREATE INDEX refunds_order_idx ON refunds (order_id)`);
    await q.query(`
      CREATE TABLE disputes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        order_id uuid NOT NULL REFERENCES orders(id),
        payment_id uuid NOT NULL REFERENCES payments(id),
        provider_dispute_id text NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('disputed', 'won', 'lost')),
        amount_cents integer NOT NULL,
        currency text NOT NULL,
        effects jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX disputes_order_idx ON disputes (order_id)`);
    await q.query(`ALTER TABLE sandbox_objects ADD COLUMN refunded_id text`);
    await q.query(`CREATE INDEX sandbox_objects_refunded_idx ON sandbox_objects (refunded_id) WHERE refunded_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_objects DROP COLUMN refunded_id`);
    await q.query(`DROP TABLE disputes`);
    await q.query(`DROP TABLE refunds`);
    await q.query(`ALTER TABLE orders DROP COLUMN dispute_status, DROP COLUMN access_revoked_at, DROP COLUMN refunded_cents`);
  }
}
