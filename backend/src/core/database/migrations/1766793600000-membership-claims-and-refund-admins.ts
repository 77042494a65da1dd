import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `orders.membership_claimed_at`: when the order claimed its buyer's one membership of its plan,
 * just before its subscription was created (OrderRepository.claimMembership). Checking for a
 * running membership and creating the subscription are steps apart, with the provider's call (and
 * the first charge) between them; the claim, taken under a per-buyer lock, makes a second tab wait
 * for the first's outcome instead of being charged beside it. A column rather than a lock held
 * across the call: the request holds no connection while the provider answers.
 *
 * `refunds.requested_by_admin_id`: the admin who asked for the refund (null for one made in the
 * provider's dashboard or by a lost dispute, or once the account is removed), and
 * `admin_audit_log.details`: what an entry's target alone does not say (a refund's id, amount and
 * currency), so that several refunds of one payment can be told apart and traced to who made them.
 */
export class MembershipClaimsAndRefundAdmins1766793600000 implements MigrationInterface {
  name = 'MembershipClaimsAndRefundAdmins1766793600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ADD COLUMN membership_claimed_at timestamptz`);
    await q.query(`ALTER TABLE refunds ADD COLUMN requested_by_admin_id uuid REFERENCES admin_accounts (id) ON DELETE SET NULL`);
    await q.query(`ALTER TABLE admin_audit_log ADD COLUMN details jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE admin_audit_log DROP COLUMN details`);
    await q.query(`ALTER TABLE refunds DROP COLUMN requested_by_admin_id`);
    await q.query(`ALTER TABLE orders DROP COLUMN membership_claimed_at`);
  }
}
