import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A webhook event as received, stored once per provider event id; the worker applies it. */
@Entity('payment_events')
export class PaymentEvent {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  type: string;

  @Column('jsonb')
  payload: Record<string, unknown>;

  @Column('timestamptz', { name: 'received_at', default: () => 'now()' })
  receivedAt: Date;

  @Column('timestamptz', { name: 'applied_at', nullable: true })
  appliedAt: Date | null;
}
