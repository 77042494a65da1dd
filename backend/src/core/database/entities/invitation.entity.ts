import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type InvitationDelivery = 'instant' | 'email';

/** One row per invitee (e-mail compared normalised); its tokens are in invitation_tokens, each submission in invitation_submissions. */
@Entity('invitations')
export class Invitation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  /** As last submitted; `emailNormalized` identifies the person. */
  @Column('text')
  email: string;

  @Column('text', { name: 'email_normalized', unique: true })
  emailNormalized: string;

  @Column('text', { nullable: true })
  phone: string | null;

  @Column('text', { name: 'invited_by', nullable: true })
  invitedBy: string | null;

  @Column('text', { nullable: true })
  referral: string | null;

  /** The delivery mode the last submission was answered with. */
  @Column('text')
  delivery: InvitationDelivery;

  @Column('int', { name: 'submission_count', default: 0 })
  submissionCount: number;

  /** How many tokens were issued; the newest token's `issue` number. */
  @Column('int', { name: 'tokens_issued', default: 0 })
  tokensIssued: number;

  /** When the last invitation e-mail was owed: the resend window counts from here, whether or not SMTP was up. */
  @Column('timestamptz', { name: 'email_owed_at', nullable: true })
  emailOwedAt: Date | null;

  /** Outcome of the last invitation e-mail job: 'sent', 'skipped: …' or 'failed: …'. */
  @Column('text', { name: 'email_status', nullable: true })
  emailStatus: string | null;

  /** When SMTP last accepted an invitation e-mail. */
  @Column('timestamptz', { name: 'last_emailed_at', nullable: true })
  lastEmailedAt: Date | null;

  /** The first successful token validation. */
  @Column('timestamptz', { name: 'verified_at', nullable: true })
  verifiedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
