import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { FunnelEventType } from '@contracts/admin';

/** A page view or checkout start from the SPA's beacon. Anonymous: no e-mail, name or query string. */
@Entity('funnel_events')
@Index('ix_funnel_events_type_at', ['type', 'occurredAt'])
export class FunnelEvent {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('text')
  type: FunnelEventType;

  /** Random per browser (localStorage); it tells visits apart, not people. */
  @Column('text', { name: 'visitor_id' })
  visitorId: string;

  @Column('text')
  path: string;

  @Column('text', { name: 'plan_id', nullable: true })
  planId: string | null;

  @Column('text', { nullable: true })
  referral: string | null;

  @Column('timestamptz', { name: 'occurred_at', default: () => 'now()' })
  occurredAt: Date;
}
