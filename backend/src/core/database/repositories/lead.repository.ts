import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SIDE_EFFECTS } from '@contracts/jobs';
import type { PersonalDataOwner, PersonErasure, PersonFindings, PersonKey, SqlExecutor, TableColumns } from '../personal-data';
import { EmailSearch } from './email-search';
import type { GroupedRow } from './grouped-row';
import { affectedRows } from './sql-results';

/** A `leads` row: one per person (e-mail compared normalised); each opt-in is in lead_submissions. */
export interface LeadRow {
  id: string;
  email: string;
  email_normalized: string;
  name: string | null;
  phone: string | null;
  referral: string | null;
  /** First-touch marketing attribution: UTM, click ids, analytics and pixel cookies. */
  attribution: Record<string, string>;
  submission_count: number;
  first_submitted_at: Date;
  last_submitted_at: Date;
  /** Outcome of the affiliate signup tracking: 'sent', 'skipped: …' or 'failed: …'. */
  affiliate_status: string | null;
  affiliate_recorded_at: Date | null;
}

/** A `lead_submissions` row: every time the lead form was submitted, including repeats of a known e-mail. */
interface LeadSubmissionRow {
  id: string;
  lead_id: string;
  submitted_at: Date;
  name: string | null;
  phone: string | null;
  referral: string | null;
  attribution: Record<string, string>;
}

/** A submitted lead, as the lead form's request gives it. */
export type NewLead = Pick<LeadRow, 'email' | 'name' | 'phone' | 'referral' | 'attribution'>;

/** The columns the admin lists and exports of a lead. */
export type LeadListing = Pick<
  LeadRow,
  'id' | 'email' | 'name' | 'phone' | 'referral' | 'submission_count' | 'first_submitted_at' | 'last_submitted_at'
>;

export const LEAD_TABLES: readonly TableColumns[] = [
  {
    table: 'leads',
    personal: ['email', 'email_normalized', 'name', 'phone', 'attribution'],
    notPersonal: ['referral', 'affiliate_status'],
  },
  { table: 'lead_submissions', personal: ['name', 'phone', 'attribution'], notPersonal: ['referral'] },
];

/** What the abandoned-checkout reminder needs of a lead at send time. */
export interface ReminderRecipient {
  email: string;
  name: string | null;
  /** The address has a paid order (any, at any time). */
  paid: boolean;
  /** The address unsubscribed from marketing e-mail. */
  unsubscribed: boolean;
}

/** A lead's affiliate status when it came with nothing to attribute: recorded as it is stored, and no signup job is owed. */
export const NO_REFERRAL = 'skipped: no referral';

/**
 * Whether the affiliate service has a lead to attribute: a tracking id from its cookie, or a
 * referral (a tracking id or a promoter's code). Empty values never reach a lead's row.
 */
export function hasAffiliateReferral(lead: Pick<LeadRow, 'referral' | 'attribution'>): boolean {
  return Boolean(lead.attribution?.tid) || Boolean(lead.referral);
}

/** Side-effect keys of the reminder: `abandoned-checkout-email:<lead id>`. */
const REMINDER_KIND = SIDE_EFFECTS.abandonedCheckoutEmail;

@Injectable()
export class LeadRepository implements PersonalDataOwner {
  readonly tables = LEAD_TABLES;
  /** The admin's leads list: latest submission first. */
  readonly byEmail: EmailSearch<LeadListing>;

  constructor(private readonly dataSource: DataSource) {
    this.byEmail = new EmailSearch(dataSource, {
      table: 'leads',
      columns: 'id, email, name, phone, referral, submission_count, first_submitted_at, last_submitted_at',
      newestFirst: 'last_submitted_at DESC, id',
    });
  }

  /**
   * Upserts the leads (keyed by `emailNormalized`, distinct within the batch) and records each
   * submission, in one statement in the caller's transaction. Each row answers with its input's
   * 1-based position (`ord`), its lead id and whether the lead is new. A new lead with nothing for
   * the affiliate service to attribute has its affiliate status (`NO_REFERRAL`) recorded at once.
   */
  upsertSubmissions(
    sql: SqlExecutor,
    leads: ReadonlyArray<NewLead & { emailNormalized: string }>,
  ): Promise<Array<{ ord: string; id: string; inserted: boolean }>> {
    return sql.query<Array<{ ord: string; id: string; inserted: boolean }>>(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::text[])
           WITH ORDINALITY AS i(email, email_normalized, name, phone, referral, attribution, affiliate_status, ord)
       ), lead AS (
         INSERT INTO leads (email, email_normalized, name, phone, referral, attribution, affiliate_status, affiliate_recorded_at)
         SELECT email, email_normalized, name, phone, referral, attribution,
                affiliate_status, CASE WHEN affiliate_status IS NOT NULL THEN now() END
           FROM input ORDER BY ord
         ON CONFLICT (email_normalized) DO UPDATE SET
           name = COALESCE(EXCLUDED.name, leads.name),
           phone = COALESCE(EXCLUDED.phone, leads.phone),
           referral = COALESCE(leads.referral, EXCLUDED.referral),
           attribution = EXCLUDED.attribution || leads.attribution,
           submission_count = leads.submission_count + 1,
           last_submitted_at = now()
         RETURNING id, email_normalized, (xmax = 0) AS inserted
       ), submission AS (
         INSERT INTO lead_submissions (lead_id, name, phone, referral, attribution)
         SELECT lead.id, input.name, input.phone, input.referral, input.attribution
           FROM input JOIN lead USING (email_normalized)
       )
       SELECT input.ord, lead.id, lead.inserted FROM input JOIN lead USING (email_normalized)`,
      [
        leads.map((lead) => lead.email),
        leads.map((lead) => lead.emailNormalized),
        leads.map((lead) => lead.name),
        leads.map((lead) => lead.phone),
        leads.map((lead) => lead.referral),
        leads.map((lead) => JSON.stringify(lead.attribution)),
        leads.map((lead) => (hasAffiliateReferral(lead) ? null : NO_REFERRAL)),
      ],
    );
  }

  /** What the affiliate signup needs of each lead (absent ids are left out). */
  findForAffiliate(ids: readonly string[]): Promise<Array<Pick<LeadRow, 'id' | 'email' | 'referral' | 'attribution'>>> {
    return this.dataSource.query<Array<Pick<LeadRow, 'id' | 'email' | 'referral' | 'attribution'>>>(
      `SELECT id, email, referral, attribution FROM leads WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  }

  async recordAffiliateStatuses(updates: ReadonlyArray<{ leadId: string; status: string }>): Promise<void> {
    await this.dataSource.query(
      `UPDATE leads l SET affiliate_status = u.status, affiliate_recorded_at = now()
         FROM unnest($1::uuid[], $2::text[]) AS u(id, status) WHERE l.id = u.id`,
      [updates.map((u) => u.leadId), updates.map((u) => u.status)],
    );
  }

  /**
   * The lead's address and name and whether it has paid or unsubscribed; null when the lead is
   * gone or erased (its address is then `erased+<id>@invalid`, which must not be mailed).
   */
  async findReminderRecipient(leadId: string): Promise<ReminderRecipient | null> {
    const [row]: ReminderRecipient[] = await this.dataSource.query(
      `SELECT l.email, l.name,
              EXISTS (SELECT 1 FROM orders o WHERE o.email_normalized = l.email_normalized AND o.paid_at IS NOT NULL) AS paid,
              EXISTS (SELECT 1 FROM email_suppressions e WHERE e.email_normalized = l.email_normalized) AS unsubscribed
         FROM leads l WHERE l.id = $1::uuid AND l.email <> 'erased+' || l.id || '@invalid'`,
      [leadId],
    );
    return row ?? null;
  }

  /**
   * Abandoned-checkout reminders sent in [from, to), and the orders (live or test) their
   * addresses paid within 7 days after their reminder.
   */
  async reminderFigures(from: Date, to: Date): Promise<{ reminders_sent: number; paid_after: number }> {
    const [row]: Array<{ reminders_sent: number; paid_after: number }> = await this.dataSource.query(
      `WITH sent AS (
         SELECT s.finished_at AS sent_at, l.email_normalized
           FROM side_effects s
           LEFT JOIN leads l ON l.id::text = substr(s.key, length($3) + 2)
          WHERE s.kind = $3 AND s.status = 'done' AND s.finished_at >= $1 AND s.finished_at < $2
       )
       SELECT (SELECT count(*) FROM sent)::int AS reminders_sent,
              (SELECT count(DISTINCT o.id) FROM sent JOIN orders o ON o.email_normalized = sent.email_normalized
                  AND o.paid_at >= sent.sent_at AND o.paid_at < sent.sent_at + interval '7 days')::int AS paid_after`,
      [from, to, REMINDER_KIND],
    );
    return row;
  }

  /** New leads in [from, to), in total and by referral (one pass). */
  newLeads(from: Date, to: Date): Promise<Array<GroupedRow & { leads: number }>> {
    return this.dataSource.query<Array<GroupedRow & { leads: number }>>(
      `SELECT GROUPING(referral) AS g_referral, 1 AS g_plan, referral, NULL AS plan_id, count(*)::int AS leads
           FROM leads
          WHERE first_submitted_at >= $1 AND first_submitted_at < $2
          GROUP BY GROUPING SETS ((), (referral))`,
      [from, to],
    );
  }

  /** The lead under the address and every submission of it. */
  async findPerson(person: PersonKey, sql: SqlExecutor, forUpdate: boolean): Promise<PersonFindings> {
    const [lead]: LeadRow[] = await sql.query(`SELECT * FROM leads WHERE email_normalized = $1${forUpdate ? ' FOR UPDATE' : ''}`, [
      person.emailNormalized,
    ]);
    const leadSubmissions: LeadSubmissionRow[] = lead
      ? await sql.query(`SELECT * FROM lead_submissions WHERE lead_id = $1 ORDER BY submitted_at, id`, [lead.id])
      : [];
    return {
      sections: { lead: lead ?? null, leadSubmissions },
      subjects: lead ? [`lead:${String(lead.id)}`] : [],
      emails: lead ? [lead.email] : [],
      names: [lead?.name, ...leadSubmissions.map((s) => s.name)].filter((name): name is string => typeof name === 'string'),
    };
  }

  /** The address becomes one no one has, per lead; name, phone and attribution go. */
  async erasePerson(erasure: PersonErasure, sql: SqlExecutor): Promise<Record<string, number>> {
    const leads = affectedRows(
      await sql.query(
        `UPDATE leads SET email = 'erased+' || id || '@invalid', email_normalized = 'erased+' || id || '@invalid', name = NULL, phone = NULL, attribution = '{}' WHERE id = ANY($1::uuid[])`,
        [erasure.ids],
      ),
    );
    const leadSubmissions = affectedRows(
      await sql.query(`UPDATE lead_submissions SET name = NULL, phone = NULL, attribution = '{}' WHERE lead_id = ANY($1::uuid[])`, [
        erasure.ids,
      ]),
    );
    return { leads, leadSubmissions };
  }
}
