import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Binds each order to the browser that created it: the SHA-256 of a random key kept in that
 * browser's httpOnly cookie. Verification answers the buyer's name, e-mail and referral only to
 * that browser; anyone else holding a payment id learns its status and amount.
 */
export class OrderBuyerBinding1765411200000 implements MigrationInterface {
  name = 'OrderBuyerBinding1765411200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ADD COLUMN buyer_key_hash text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders DROP COLUMN buyer_key_hash`);
  }
}
