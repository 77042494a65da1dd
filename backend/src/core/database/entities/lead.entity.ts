import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One row per person (e-mail compared case-insensitively); each opt-in is in lead_submissions. */
@Entity('leads')
export class Lead {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  email: string;

  @Column('text', { name: 'email_normalized', unique: true })
  emailNormalized: string;

  @Column('text', { nullable: true })
  name: string | null;

  @Column('text', { nullable: true })
  phone: string | null;

  @Column('text', { nullable: true })
  referral: string | null;

  /** First-touch marketing attribution: UTM, click ids, analytics and pixel cookies. */
  @Column('jsonb', { default: {} })
  attribution: Record<string, string>;

  @Column('int', { name: 'submission_count', default: 1 })
  submissionCount: number;

  @CreateDateColumn({ name: 'first_submitted_at', type: 'timestamptz' })
  firstSubmittedAt: Date;

  @Column('timestamptz', { name: 'last_submitted_at', default: () => 'now()' })
  lastSubmittedAt: Date;

  /** Outcome of the affiliate signup tracking: 'sent', 'skipped: …' or 'failed: …'. */
  @Column('text', { name: 'affiliate_status', nullable: true })
  affiliateStatus: string | null;

  @Column('timestamptz', { name: 'affiliate_recorded_at', nullable: true })
  affiliateRecordedAt: Date | null;
}
