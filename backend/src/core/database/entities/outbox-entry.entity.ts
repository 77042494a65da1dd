import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A side effect the API owes, written in the same transaction as the data that caused it.
 * The relay hands it to BullMQ (jobId = id, dispatched_at); the worker stamps completed_at or failed_at.
 */
@Entity('outbox')
export class OutboxEntry {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  queue: string;

  @Column('text', { name: 'job_name' })
  jobName: string;

  @Column('jsonb')
  payload: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'dispatched_at', nullable: true })
  dispatchedAt: Date | null;

  /** A relay is handing the row to Redis until then; other relays leave it alone. */
  @Column('timestamptz', { name: 'lease_until', nullable: true })
  leaseUntil: Date | null;

  /** A relay saw the row and did not know its job name: it waits for a worker that does. */
  @Column('timestamptz', { name: 'unhandled_at', nullable: true })
  unhandledAt: Date | null;

  @Column('int', { name: 'dispatch_count', default: 0 })
  dispatchCount: number;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;

  @Column('timestamptz', { name: 'failed_at', nullable: true })
  failedAt: Date | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;
}
