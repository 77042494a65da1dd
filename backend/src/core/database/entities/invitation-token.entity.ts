import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An access token issued to an invitation, known only by its SHA-256; valid until `expiresAt`. */
@Entity('invitation_tokens')
export class InvitationToken {
  @PrimaryColumn('text', { name: 'token_hash' })
  tokenHash: string;

  @Column('uuid', { name: 'invitation_id' })
  invitationId: string;

  /** 1 for the invitation's first token, then counting up: part of the e-mail's ledger key. */
  @Column('int')
  issue: number;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
