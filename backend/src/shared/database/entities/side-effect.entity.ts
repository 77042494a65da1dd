import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * The durable record that an external side effect (affiliate call, e-mail, conversion) happened.
 * Its key is unique, so a retried or re-dispatched job sees the record and does nothing twice.
 */
@Entity('side_effects')
export class SideEffect {
  @PrimaryColumn('text')
  key: string;

  @Column('text')
  kind: string;

  @Column('jsonb', { default: {} })
  detail: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
