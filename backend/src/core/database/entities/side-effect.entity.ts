import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type SideEffectStatus = 'claimed' | 'done' | 'failed';

/**
 * The ledger of external side effects (affiliate call, e-mail, conversion, webhook). The row is
 * claimed under its unique key before the call and finished after it; its key is the idempotency
 * key sent on every attempt, so a retry resumes the same call and a finished row is never redone.
 */
@Entity('side_effects')
export class SideEffect {
  @PrimaryColumn('text')
  key: string;

  @Column('text')
  kind: string;

  /** 'claimed' until the provider's answer is recorded; 'done' or 'failed' (refused for good) after. */
  @Column('text', { default: 'claimed' })
  status: SideEffectStatus;

  @Column('int', { default: 0 })
  attempts: number;

  /** The recorded outcome: provider ids and status codes, never personal data. */
  @Column('jsonb', { default: {} })
  detail: Record<string, unknown>;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'last_attempt_at', default: () => 'now()' })
  lastAttemptAt: Date;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;
}
