import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per successful charge of an order: the first payment (recorded when the order is first
 * paid) and each renewal or instalment after it (recorded from the provider's paid invoice). The
 * provider's id of the charge is unique, so a webhook delivered twice records it once; paid
 * orders made before this migration get their first payment here.
 */
export class CreatePayments1765584000000 implements MigrationInterface {
  name = 'CreatePayments1765584000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        order_id uuid NOT NULL REFERENCES orders(id),
        provider_payment_id text NOT NULL UNIQUE,
        sequence integer NOT NULL CHECK (sequence >= 1),
        amount_cents integer NOT NULL,
        currency text NOT NULL,
        paid_at timestamptz NOT NULL,
        paid_effects jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (order_id, sequence)
      )`);
    await q.query(`
      INSERT INTO payments (order_id, provider_payment_id, sequence, amount_cents, currency, paid_at)
      SELECT id, COALESCE(payment_intent_id, subscription_id, id::text), 1, amount_cents, currency, paid_at
        FROM orders WHERE paid_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE payments`);
  }
}
