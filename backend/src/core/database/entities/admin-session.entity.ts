import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A signed-in admin browser. Absolute lifetime: `expiresAt` is fixed at sign-in. */
@Entity('admin_sessions')
export class AdminSession {
  /** SHA-256 (hex) of the random session id in the cookie; the id itself is never stored. */
  @PrimaryColumn('text', { name: 'id_hash' })
  idHash: string;

  @Index('ix_admin_sessions_admin')
  @Column('uuid', { name: 'admin_id' })
  adminId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Index('ix_admin_sessions_expires')
  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;
}
