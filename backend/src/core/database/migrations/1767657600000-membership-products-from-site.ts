import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Products are site.json's (each plan's `product`), no longer the three of the first site: the
 * check on memberships.product becomes the shape site.json allows a product id (the slug of
 * site.schema.ts). Rows keep their values, and the default site keeps clear, elite and blackcard,
 * which the previous release (still running in a rolling upgrade) writes and which fit the shape.
 */
export class MembershipProductsFromSite1767657600000 implements MigrationInterface {
  name = 'MembershipProductsFromSite1767657600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE memberships DROP CONSTRAINT memberships_product_check`);
    await q.query(`ALTER TABLE memberships ADD CONSTRAINT memberships_product_check CHECK (product ~ '^[a-z0-9][a-z0-9-]{0,39}$')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE memberships DROP CONSTRAINT memberships_product_check`);
    // NOT VALID: memberships of another site's products made meanwhile stay; new ones are held to the old list.
    await q.query(
      `ALTER TABLE memberships ADD CONSTRAINT memberships_product_check CHECK (product IN ('clear', 'elite', 'blackcard')) NOT VALID`,
    );
  }
}
