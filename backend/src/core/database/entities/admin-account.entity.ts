import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A person who may sign in to /admin; created only by `npm run admin:create`. */
@Entity('admin_accounts')
export class AdminAccount {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** As typed when the account was created; sign-in looks up `emailNormalized`. */
  @Column('text')
  email: string;

  @Column('text', { name: 'email_normalized', unique: true })
  emailNormalized: string;

  /** argon2id PHC string (algorithm, parameters and salt included). */
  @Column('text', { name: 'password_hash' })
  passwordHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'last_login_at', nullable: true })
  lastLoginAt: Date | null;
}
