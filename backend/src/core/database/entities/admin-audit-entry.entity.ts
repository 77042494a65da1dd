import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One admin action (sign-in, failed sign-in, create, edit, delete…). Never holds a password. */
@Entity('admin_audit_log')
export class AdminAuditEntry {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  /** Null for a failed sign-in to an address that has no account, or after the account was removed. */
  @Column('uuid', { name: 'admin_id', nullable: true })
  adminId: string | null;

  @Column('text')
  action: string;

  /** What the action touched, as `kind:id` (e.g. `testimonial:…`); null when nothing in particular. */
  @Column('text', { nullable: true })
  target: string | null;

  @Index('ix_admin_audit_log_at')
  @Column('timestamptz', { default: () => 'now()' })
  at: Date;

  @Column('text', { name: 'client_ip', nullable: true })
  clientIp: string | null;
}
