import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { FunnelEventType } from '@contracts/admin';
import type { TableColumns } from '../personal-data';
import type { GroupedRow } from './grouped-row';
import { affectedRows } from './sql-results';

/** Every event type, so a delete by age can use the (type, occurred_at) index. */
const EVENT_TYPES = Object.keys({ page_view: true, checkout_start: true } satisfies Record<FunnelEventType, true>);

/** A beacon as the API accepted it. */
export interface NewFunnelEvent {
  type: FunnelEventType;
  visitorId: string;
  path: string;
  planId: string | null;
  referral: string | null;
}

export const FUNNEL_EVENT_TABLES: readonly TableColumns[] = [
  // The beacon refuses anything but a public page path, a plan id and a referral id; visitor_id is
  // random per browser (localStorage): it tells visits apart, not people.
  { table: 'funnel_events', personal: [], notPersonal: ['type', 'visitor_id', 'path', 'plan_id', 'referral'] },
];

@Injectable()
export class FunnelEventRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(event: NewFunnelEvent): Promise<void> {
    await this.dataSource.query(`INSERT INTO funnel_events (type, visitor_id, path, plan_id, referral) VALUES ($1, $2, $3, $4, $5)`, [
      event.type,
      event.visitorId,
      event.path,
      event.planId,
      event.referral,
    ]);
  }

  /** Deletes up to `batchSize` events that occurred more than `days` ago; resolves with how many. */
  async deleteBefore(days: number, batchSize: number): Promise<number> {
    return affectedRows(
      await this.dataSource.query(
        `DELETE FROM funnel_events WHERE id IN (
           SELECT id FROM funnel_events
            WHERE type = ANY($3::text[]) AND occurred_at < now() - make_interval(days => $1::int)
            LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [days, batchSize, EVENT_TYPES],
      ),
    );
  }

  /** Visitors (distinct, from page views) and checkout starts in [from, to), in total, by referral and by plan (one pass). */
  visitorsAndCheckouts(from: Date, to: Date): Promise<Array<GroupedRow & { visitors: number; checkouts: number }>> {
    return this.dataSource.query<Array<GroupedRow & { visitors: number; checkouts: number }>>(
      `SELECT GROUPING(referral) AS g_referral, GROUPING(plan_id) AS g_plan, referral, plan_id,
                count(DISTINCT visitor_id) FILTER (WHERE type = 'page_view')::int AS visitors,
                count(*) FILTER (WHERE type = 'checkout_start')::int AS checkouts
           FROM funnel_events
          WHERE occurred_at >= $1 AND occurred_at < $2
          GROUP BY GROUPING SETS ((), (referral), (plan_id))`,
      [from, to],
    );
  }
}
