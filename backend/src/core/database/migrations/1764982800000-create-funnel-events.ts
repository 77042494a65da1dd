import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Page views and checkout starts reported by the SPA's beacon, for the funnel dashboard.
 * Anonymous on purpose: a random per-browser visitor id, the path without its query string, the
 * plan of a checkout start and the referral id; never an e-mail, a name or an address.
 */
export class CreateFunnelEvents1764982800000 implements MigrationInterface {
  name = 'CreateFunnelEvents1764982800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE funnel_events (
        id bigserial PRIMARY KEY,
        type text NOT NULL CHECK (type IN ('page_view', 'checkout_start')),
        visitor_id text NOT NULL,
        path text NOT NULL CHECK (path !~ '[?#]'),
        plan_id text,
        referral text,
        occurred_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Every dashboard query selects one event type over a time range.
    await q.query(`CREATE INDEX ix_funnel_events_type_at ON funnel_events (type, occurred_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE funnel_events`);
  }
}
