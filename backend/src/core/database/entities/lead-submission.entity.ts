import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Every time the lead form was submitted, including repeats of a known e-mail. */
@Entity('lead_submissions')
export class LeadSubmission {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid', { name: 'lead_id' })
  leadId: string;

  @CreateDateColumn({ name: 'submitted_at', type: 'timestamptz' })
  submittedAt: Date;

  @Column('text', { nullable: true })
  name: string | null;

  @Column('text', { nullable: true })
  phone: string | null;

  @Column('text', { nullable: true })
  referral: string | null;

  @Column('jsonb', { default: {} })
  attribution: Record<string, string>;
}
