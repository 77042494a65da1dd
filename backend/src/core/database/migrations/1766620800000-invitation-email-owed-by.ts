import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `invitations.email_owed_by`: the submission (`invitation_submissions.id`) that owed the
 * invitation's last e-mail. The gate decides in one upsert whether a submission owes an e-mail
 * (none within the resend window), and an upsert returns only the row as it leaves it: the
 * submission finds its own id here exactly when it was the one that owed the e-mail, whatever
 * other submissions of the address ran at the same time. No foreign key: the submission row is
 * written by the same statement, and the column is a marker, not a relation to follow.
 */
export class InvitationEmailOwedBy1766620800000 implements MigrationInterface {
  name = 'InvitationEmailOwedBy1766620800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invitations ADD COLUMN email_owed_by bigint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invitations DROP COLUMN email_owed_by`);
  }
}
