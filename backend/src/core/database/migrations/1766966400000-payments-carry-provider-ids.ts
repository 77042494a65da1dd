import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A first payment was once recorded under its order's own id when the provider's event was
 * applied before the request that created the charge had stored the charge's id. No refund or
 * dispute can find such a payment. The request stored the id right after, so the order holds it
 * now: each such payment takes its order's charge id (else its subscription's), as a first
 * payment is recorded today. The CHECK then keeps our own ids out of `provider_payment_id` for
 * good. A payment whose order still holds neither id (none is known) stays as it is and the
 * migration warns with the query that lists them: an operator repairs those from the provider.
 */
export class PaymentsCarryProviderIds1766966400000 implements MigrationInterface {
  name = 'PaymentsCarryProviderIds1766966400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE payments p SET provider_payment_id = COALESCE(o.payment_intent_id, o.subscription_id)
         FROM orders o
        WHERE p.order_id = o.id AND p.provider_payment_id = o.id::text
          AND COALESCE(o.payment_intent_id, o.subscription_id) IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM payments q WHERE q.provider_payment_id = COALESCE(o.payment_intent_id, o.subscription_id))`,
    );
    await q.query(
      `ALTER TABLE payments ADD CONSTRAINT payments_provider_id_not_ours CHECK (provider_payment_id <> order_id::text) NOT VALID`,
    );
    await q.query(
      `DO $$ BEGIN
         ALTER TABLE payments VALIDATE CONSTRAINT payments_provider_id_not_ours;
       EXCEPTION WHEN check_violation THEN
         RAISE WARNING 'payments: % first payment(s) still carry their order''s id; find them with SELECT order_id FROM payments WHERE provider_payment_id = order_id::text',
           (SELECT count(*) FROM payments WHERE provider_payment_id = order_id::text);
       END $$`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments DROP CONSTRAINT payments_provider_id_not_ours`);
  }
}
