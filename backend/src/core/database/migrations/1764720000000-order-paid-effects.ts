import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What became of each paid side effect of an order (affiliate sale, Meta and GA4 purchases,
 * receipt e-mail), e.g. `{"meta-purchase": "skipped: not configured"}`. The side_effects ledger
 * only holds effects that were attempted; a skipped one is recorded here, next to the order.
 */
export class OrderPaidEffects1764720000000 implements MigrationInterface {
  name = 'OrderPaidEffects1764720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ADD COLUMN paid_effects jsonb NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders DROP COLUMN paid_effects`);
  }
}
