import { MigrationInterface, QueryRunner } from 'typeorm';
import { normalizeEmail } from '@contracts/email';

interface StoredLead {
  id: string;
  email: string;
  email_normalized: string;
}

/**
 * Leads used to be keyed by SQL `lower(email)`, which under the C locale lowers ASCII only; they
 * are now keyed by `normalizeEmail`. The two agree on ASCII addresses, so only rows with other
 * characters are rekeyed. Where two rows turn out to be one address, the row being rekeyed is
 * merged into the one that already holds the key (submissions, counts, missing details), as
 * the lead writer would have done had it known them to be one.
 */
export class RenormalizeLeadEmails1764547200000 implements MigrationInterface {
  name = 'RenormalizeLeadEmails1764547200000';

  async up(q: QueryRunner): Promise<void> {
    const rows = (await q.query(
      `SELECT id, email, email_normalized FROM leads
        WHERE email ~ '[^[:ascii:]]' OR email_normalized ~ '[^[:ascii:]]'
        ORDER BY first_submitted_at, id`,
    )) as StoredLead[];
    for (const row of rows) {
      const key = normalizeEmail(row.email);
      if (key === row.email_normalized) continue;
      const [owner] = (await q.query(`SELECT id FROM leads WHERE email_normalized = $1`, [key])) as Array<{ id: string }>;
      if (!owner) {
        await q.query(`UPDATE leads SET email_normalized = $2 WHERE id = $1`, [row.id, key]);
        continue;
      }
      await q.query(`UPDATE lead_submissions SET lead_id = $1 WHERE lead_id = $2`, [owner.id, row.id]);
      await q.query(
        `UPDATE leads o SET
           name = COALESCE(o.name, d.name),
           phone = COALESCE(o.phone, d.phone),
           referral = COALESCE(o.referral, d.referral),
           attribution = d.attribution || o.attribution,
           submission_count = o.submission_count + d.submission_count,
           first_submitted_at = LEAST(o.first_submitted_at, d.first_submitted_at),
           last_submitted_at = GREATEST(o.last_submitted_at, d.last_submitted_at)
          FROM leads d
         WHERE o.id = $1 AND d.id = $2`,
        [owner.id, row.id],
      );
      await q.query(`DELETE FROM leads WHERE id = $1`, [row.id]);
    }
  }

  /** The new keys work as keys for the old code too; merged rows are not split again. */
  async down(): Promise<void> {}
}
