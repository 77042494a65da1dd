import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JOB_QUEUE, JOBS } from '@contracts/jobs';
import type { PersonalDataOwner, PersonErasure, PersonFindings, PersonKey, SqlExecutor, TableColumns } from '../personal-data';
import { scrubDocuments } from './document-scrub';
import { affectedRows } from './sql-results';

type InvitationDelivery = 'instant' | 'email';

/** An `invitations` row: one per invitee (e-mail compared normalised). */
export interface InvitationRow {
  id: string;
  name: string;
  /** As last submitted; `email_normalized` identifies the person. */
  email: string;
  email_normalized: string;
  phone: string | null;
  invited_by: string | null;
  referral: string | null;
  /** The delivery mode the last submission was answered with. */
  delivery: InvitationDelivery;
  submission_count: number;
  /** How many tokens were issued; the newest token's `issue` number. */
  tokens_issued: number;
  /** When the last invitation e-mail was owed: the resend window counts from here, whether or not SMTP was up. */
  email_owed_at: Date | null;
  /** The submission (`invitation_submissions.id`) that owed the last invitation e-mail. */
  email_owed_by: string | null;
  /** Outcome of the last invitation e-mail job: 'sent', 'skipped: …' or 'failed: …'. */
  email_status: string | null;
  /** When SMTP last accepted an invitation e-mail. */
  last_emailed_at: Date | null;
  /** The first successful token validation. */
  verified_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An `invitation_submissions` row: every time the invitation form was submitted, including repeats of a known e-mail. */
interface InvitationSubmissionRow {
  id: string;
  invitation_id: string;
  submitted_at: Date;
  name: string;
  phone: string | null;
  invited_by: string | null;
  referral: string | null;
  delivery: InvitationDelivery;
}

/** An `invitation_tokens` row: an access token, known only by its SHA-256, valid until `expires_at`. */
export interface InvitationTokenRow {
  token_hash: string;
  invitation_id: string;
  /** 1 for the invitation's first token, then counting up: part of the e-mail's ledger key. */
  issue: number;
  expires_at: Date;
  created_at: Date;
}

/** One submission of the invitation form, as the gate stores it. */
export interface InvitationSubmission {
  name: string;
  email: string;
  emailNormalized: string;
  phone: string | null;
  invitedBy: string | null;
  referral: string | null;
  delivery: InvitationDelivery;
}

/**
 * A submission with the token it gets if it is issued one (known only by its hash, valid until
 * `tokenExpiresAt`), and what it needs should it create its invitation: the id the invitation
 * gets, and the token sealed for that invitation's e-mail of issue 1.
 */
export type IssuingSubmission = InvitationSubmission & {
  tokenHash: string;
  tokenExpiresAt: Date;
  newId: string;
  newSealedToken: string;
};

/** What became of a submission: its invitation, the token's issue number if it was issued one, whether it owes the e-mail. */
export interface RecordedSubmission {
  /** The submission's position (from 1) in what was recorded. */
  ord: number;
  invitation_id: string;
  issue: number | null;
  owes_email: boolean;
}

/** In the upsert: an invitation e-mail was owed within the resend window ($12 ms) before this submission. */
const OWED_RECENTLY = `COALESCE(i.email_owed_at > now() - make_interval(secs => $12::double precision / 1000), false)`;

export const INVITATION_TABLES: readonly TableColumns[] = [
  {
    table: 'invitations',
    // An SMTP refusal may quote the address, so the e-mail's outcome is personal too.
    personal: ['name', 'email', 'email_normalized', 'phone', 'invited_by', 'email_status'],
    notPersonal: ['referral', 'delivery'],
  },
  { table: 'invitation_submissions', personal: ['name', 'phone', 'invited_by'], notPersonal: ['referral', 'delivery'] },
  { table: 'invitation_tokens', personal: [], notPersonal: ['token_hash'] },
];

@Injectable()
export class InvitationRepository implements PersonalDataOwner {
  readonly tables = INVITATION_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records submissions of the gate, each to a different address, in one statement: creates or
   * updates each invitation, decides whether the submission owes the invitation e-mail (none was
   * owed within `resendWindowMs`) and whether it gets a token (it owes the e-mail, or delivery is
   * instant), stores that token under the next issue number (dropping the invitation's expired
   * tokens on the way) and the submission itself. Answers one row per submission recorded, in
   * any order.
   *
   * The upsert decides on the row as it is after any concurrent submission of the address (it
   * waits for its lock), and a submission knows it owed the e-mail by finding its own id in
   * `email_owed_by`. The invitee's name, inviter and referral stay as first given (anyone can
   * submit the gate with somebody's address); a missing one is filled.
   *
   * `oweNew`: the statement is a transaction of its own, so it also owes the e-mails of the
   * invitations it creates (their id and issue 1 are known beforehand, so is the payload), and
   * it leaves out (no row answered) a submission whose existing invitation would owe an e-mail:
   * the caller records that one again without `oweNew`, in a transaction where it owes the
   * e-mail itself (`owe`), with the invitation's id and issue answered here.
   */
  recordSubmissions(
    sql: SqlExecutor,
    submissions: readonly IssuingSubmission[],
    resendWindowMs: number,
    { oweNew }: { oweNew: boolean },
  ): Promise<RecordedSubmission[]> {
    const column = <K extends keyof IssuingSubmission>(key: K) => submissions.map((s) => s[key]);
    return sql.query<RecordedSubmission[]>(
      `WITH input AS MATERIALIZED (
         SELECT nextval('invitation_submissions_id_seq') AS submission_id, s.*
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                       $10::timestamptz[], $11::text[])
                WITH ORDINALITY AS s(new_id, name, email, email_normalized, phone, invited_by, referral, delivery, token_hash, expires_at,
                                     new_sealed_token, ord)
       ), invitation AS (
         INSERT INTO invitations AS i (id, name, email, email_normalized, phone, invited_by, referral, delivery,
                                       submission_count, tokens_issued, email_owed_at, email_owed_by)
         SELECT new_id, name, email, email_normalized, phone, invited_by, referral, delivery, 1, 1, now(), submission_id
           FROM input ORDER BY ord
         ON CONFLICT (email_normalized) DO UPDATE SET
           name = COALESCE(NULLIF(i.name, ''), excluded.name), email = excluded.email, phone = COALESCE(excluded.phone, i.phone),
           invited_by = COALESCE(i.invited_by, excluded.invited_by), referral = COALESCE(i.referral, excluded.referral),
           delivery = excluded.delivery, submission_count = i.submission_count + 1,
           tokens_issued = i.tokens_issued + CASE WHEN excluded.delivery = 'instant' OR NOT ${OWED_RECENTLY} THEN 1 ELSE 0 END,
           email_owed_at = CASE WHEN ${OWED_RECENTLY} THEN i.email_owed_at ELSE now() END,
           email_owed_by = CASE WHEN ${OWED_RECENTLY} THEN i.email_owed_by ELSE excluded.email_owed_by END,
           updated_at = now()
         ${oweNew ? `WHERE ${OWED_RECENTLY}` : ''}
         RETURNING i.id, i.email_normalized, i.tokens_issued, i.email_owed_by
       ), decided AS (
         SELECT input.*, invitation.id AS invitation_id, invitation.tokens_issued AS issue,
                COALESCE(invitation.email_owed_by = input.submission_id, false) AS owes_email,
                COALESCE(invitation.email_owed_by = input.submission_id, false) OR input.delivery = 'instant' AS issued
           FROM input JOIN invitation USING (email_normalized)
       ), expired AS (
         -- An array, not a join: the planner cannot count the submissions and might scan every token.
         DELETE FROM invitation_tokens
          WHERE invitation_id = ANY (ARRAY(SELECT invitation_id FROM decided WHERE issued)) AND expires_at <= now()
       ), token AS (
         INSERT INTO invitation_tokens (token_hash, invitation_id, issue, expires_at)
         SELECT token_hash, invitation_id, issue, expires_at FROM decided WHERE issued ORDER BY ord
       ), submission AS (
         INSERT INTO invitation_submissions (id, invitation_id, name, phone, invited_by, referral, delivery)
         SELECT submission_id, invitation_id, name, phone, invited_by, referral, delivery FROM decided ORDER BY ord
       )${
         oweNew
           ? `, owed AS (
         INSERT INTO outbox (queue, job_name, payload)
         SELECT $13, $14, jsonb_build_object('invitationId', invitation_id, 'issue', issue, 'sealedToken', new_sealed_token)
           FROM decided WHERE owes_email ORDER BY ord
       )`
           : ''
       }
       SELECT ord::int, invitation_id, CASE WHEN issued THEN issue END AS issue, owes_email FROM decided`,
      [
        column('newId'),
        column('name'),
        column('email'),
        column('emailNormalized'),
        column('phone'),
        column('invitedBy'),
        column('referral'),
        column('delivery'),
        column('tokenHash'),
        column('tokenExpiresAt'),
        column('newSealedToken'),
        resendWindowMs,
        ...(oweNew ? [JOB_QUEUE[JOBS.invitationEmail], JOBS.invitationEmail] : []),
      ],
    );
  }

  /** The invitee a live token belongs to. */
  async findByLiveToken(tokenHash: string): Promise<(Pick<InvitationRow, 'id' | 'email' | 'name'> & { verified: boolean }) | null> {
    const [row]: Array<Pick<InvitationRow, 'id' | 'email' | 'name'> & { verified: boolean }> = await this.dataSource.query(
      `SELECT i.id, i.email, i.name, i.verified_at IS NOT NULL AS verified
         FROM invitation_tokens t JOIN invitations i ON i.id = t.invitation_id
        WHERE t.token_hash = $1 AND t.expires_at > now()`,
      [tokenHash],
    );
    return row ?? null;
  }

  async markVerified(invitationId: string): Promise<void> {
    await this.dataSource.query(`UPDATE invitations SET verified_at = now() WHERE id = $1 AND verified_at IS NULL`, [invitationId]);
  }

  /** The invitee and the token of one issue, for its e-mail. */
  async findIssue(
    invitationId: string,
    issue: number,
  ): Promise<(Pick<InvitationRow, 'email' | 'name'> & Pick<InvitationTokenRow, 'token_hash' | 'expires_at'>) | null> {
    const [row]: Array<Pick<InvitationRow, 'email' | 'name'> & Pick<InvitationTokenRow, 'token_hash' | 'expires_at'>> =
      await this.dataSource.query(
        `SELECT i.email, i.name, t.token_hash, t.expires_at
           FROM invitations i JOIN invitation_tokens t ON t.invitation_id = i.id AND t.issue = $2
          WHERE i.id = $1`,
        [invitationId, issue],
      );
    return row ?? null;
  }

  /** Records what became of the invitation e-mail; `delivered`: SMTP accepted it now. */
  async recordEmailStatus(invitationId: string, status: string, delivered: boolean): Promise<void> {
    await this.dataSource.query(
      `UPDATE invitations SET email_status = $2, last_emailed_at = CASE WHEN $3 THEN now() ELSE last_emailed_at END WHERE id = $1`,
      [invitationId, status, delivered],
    );
  }

  /** Invitations created in [from, to): how many, how many verified and how many bought (a live order, through a token or the gate's address) before `to`. */
  async funnel(from: Date, to: Date): Promise<{ invited: number; verified: number; purchased: number }> {
    const [row]: Array<{ invited: number; verified: number; purchased: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS invited,
                count(*) FILTER (WHERE i.verified_at < $2)::int AS verified,
                count(*) FILTER (WHERE EXISTS (
                  SELECT 1 FROM orders o
                   WHERE o.paid_at < $2 AND o.livemode
                     AND (o.invitation_token_hash IN (SELECT t.token_hash FROM invitation_tokens t WHERE t.invitation_id = i.id)
                          OR (o.source = 'blackcard' AND o.email_normalized = i.email_normalized))))::int AS purchased
           FROM invitations i
          WHERE i.created_at >= $1 AND i.created_at < $2`,
      [from, to],
    );
    return row;
  }

  /** The invitation under the address, its submissions and its tokens without their hashes. */
  async findPerson(person: PersonKey, sql: SqlExecutor, forUpdate: boolean): Promise<PersonFindings> {
    const [invitation]: InvitationRow[] = await sql.query(
      `SELECT * FROM invitations WHERE email_normalized = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [person.emailNormalized],
    );
    const invitationSubmissions: InvitationSubmissionRow[] = invitation
      ? await sql.query(`SELECT * FROM invitation_submissions WHERE invitation_id = $1 ORDER BY submitted_at, id`, [invitation.id])
      : [];
    const invitationTokens: Array<{ issue: number; expiresAt: Date; createdAt: Date }> = invitation
      ? await sql.query(
          `SELECT issue, expires_at AS "expiresAt", created_at AS "createdAt" FROM invitation_tokens WHERE invitation_id = $1 ORDER BY issue`,
          [invitation.id],
        )
      : [];
    return {
      sections: { invitation: invitation ?? null, invitationSubmissions, invitationTokens },
      subjects: invitation ? [`invitation:${String(invitation.id)}`] : [],
      emails: invitation ? [invitation.email] : [],
      names: [invitation?.name, ...invitationSubmissions.map((s) => s.name)].filter((name): name is string => typeof name === 'string'),
    };
  }

  /**
   * The address becomes one no one has, per invitation; the name is replaced, phone and inviter
   * go, and the invitation's tokens stop working. E-mail outcomes that quote the address are
   * scrubbed wherever they are.
   */
  async erasePerson(erasure: PersonErasure, sql: SqlExecutor): Promise<Record<string, number>> {
    await scrubDocuments(sql, erasure, [{ table: 'invitations', key: 'id', column: 'email_status', json: false }]);
    const invitations = affectedRows(
      await sql.query(
        `UPDATE invitations SET email = 'erased+' || id || '@invalid', email_normalized = 'erased+' || id || '@invalid', name = $2, phone = NULL, invited_by = NULL, updated_at = now() WHERE id = ANY($1::uuid[])`,
        [erasure.ids, erasure.erasedName],
      ),
    );
    const invitationSubmissions = affectedRows(
      await sql.query(
        `UPDATE invitation_submissions SET name = $2, phone = NULL, invited_by = NULL WHERE invitation_id = ANY($1::uuid[])`,
        [erasure.ids, erasure.erasedName],
      ),
    );
    const invitationTokens = affectedRows(
      await sql.query(`UPDATE invitation_tokens SET expires_at = LEAST(expires_at, now()) WHERE invitation_id = ANY($1::uuid[])`, [
        erasure.ids,
      ]),
    );
    return { invitations, invitationSubmissions, invitationTokens };
  }
}
