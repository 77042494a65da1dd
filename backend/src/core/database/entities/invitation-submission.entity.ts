import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Every time the invitation form was submitted, including repeats of a known e-mail. */
@Entity('invitation_submissions')
export class InvitationSubmission {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid', { name: 'invitation_id' })
  invitationId: string;

  @CreateDateColumn({ name: 'submitted_at', type: 'timestamptz' })
  submittedAt: Date;

  @Column('text')
  name: string;

  @Column('text', { nullable: true })
  phone: string | null;

  @Column('text', { name: 'invited_by', nullable: true })
  invitedBy: string | null;

  @Column('text', { nullable: true })
  referral: string | null;

  @Column('text')
  delivery: string;
}
