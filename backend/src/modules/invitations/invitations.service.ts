import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '@core/config/app-config';
import { normalizeEmail } from '@contracts/email';
import type { InvitationGateResponse, InviteeResponse } from '@contracts/invitations';
import { JOBS } from '@contracts/jobs';
import { owe } from '@core/queue/owe';
import { hashAccessToken, invitationEmailContext, isWellFormedAccessToken, issueAccessToken, sealAccessToken } from '@core/invitations/access-token';
import { InvitationGateDto } from './dto/invitation-gate.dto';

const INVALID_LINK = 'This access link is invalid or has expired. Please request a new invitation.';
const DAY_MS = 24 * 3600 * 1000;

const blankToNull = (value: string | undefined): string | null => (value?.trim() ? value.trim() : null);

interface Submission {
  name: string;
  email: string;
  emailNormalized: string;
  phone: string | null;
  invitedBy: string | null;
  referral: string | null;
  delivery: 'instant' | 'email';
}

interface LockedInvitation {
  id: string;
  tokens_issued: number;
  emailed_recently: boolean;
}

/**
 * The invitation gate. One invitation per normalised e-mail; each submission updates it. The
 * invitation e-mail (with a fresh token) is owed unless one was owed within
 * INVITATION_RESEND_WINDOW_MS, so repeats send nothing. With instant delivery every submission
 * also answers with a token: a fresh one, because only hashes are kept. Earlier tokens stay valid
 * until they expire, so the e-mailed link keeps working after a resubmission.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  submit(dto: InvitationGateDto): Promise<InvitationGateResponse> {
    const delivery = this.config.INVITATION_DELIVERY;
    const email = dto.email.trim();
    const s: Submission = {
      name: dto.name.trim(),
      email,
      emailNormalized: normalizeEmail(email),
      phone: blankToNull(dto.phone),
      invitedBy: blankToNull(dto.invitedBy),
      referral: blankToNull(dto.referral),
      delivery,
    };

    return this.dataSource.transaction(async (manager) => {
      const invitation = await this.lockInvitation(manager, s);
      const owesEmail = !invitation.emailed_recently;
      const issue = owesEmail || delivery === 'instant' ? invitation.tokens_issued + 1 : null;
      const token = issue === null ? null : await this.issueToken(manager, invitation.id, issue);

      await manager.query(
        `UPDATE invitations
            SET name = $2, email = $3, phone = COALESCE($4, phone), invited_by = COALESCE($5, invited_by), referral = COALESCE($6, referral),
                delivery = $7, submission_count = submission_count + 1, tokens_issued = COALESCE($8, tokens_issued),
                email_owed_at = CASE WHEN $9 THEN now() ELSE email_owed_at END, updated_at = now()
          WHERE id = $1`,
        [invitation.id, s.name, s.email, s.phone, s.invitedBy, s.referral, delivery, issue, owesEmail],
      );
      await manager.query(
        `INSERT INTO invitation_submissions (invitation_id, name, phone, invited_by, referral, delivery) VALUES ($1, $2, $3, $4, $5, $6)`,
        [invitation.id, s.name, s.phone, s.invitedBy, s.referral, delivery],
      );
      if (owesEmail && token !== null && issue !== null) {
        const context = invitationEmailContext(invitation.id, issue);
        await owe(manager, [
          {
            name: JOBS.invitationEmail,
            data: {
              invitationId: invitation.id,
              issue,
              sealedToken: sealAccessToken(token, this.config.INVITATION_TOKEN_KEY_BYTES, context),
            },
          },
        ]);
      }
      return delivery === 'instant' && token !== null ? { accessToken: token } : {};
    });
  }

  /** The invitee of a live token; 404 for anything else, without telling unknown from expired. */
  async invitee(token: string): Promise<InviteeResponse> {
    if (!isWellFormedAccessToken(token)) throw new NotFoundException(INVALID_LINK);
    const [row]: Array<{ id: string; email: string; name: string; verified: boolean }> = await this.dataSource.query(
      `SELECT i.id, i.email, i.name, i.verified_at IS NOT NULL AS verified
         FROM invitation_tokens t JOIN invitations i ON i.id = t.invitation_id
        WHERE t.token_hash = $1 AND t.expires_at > now()`,
      [hashAccessToken(token)],
    );
    if (!row) throw new NotFoundException(INVALID_LINK);
    if (!row.verified)
      await this.dataSource.query(`UPDATE invitations SET verified_at = now() WHERE id = $1 AND verified_at IS NULL`, [row.id]);
    return { email: row.email, name: row.name };
  }

  /**
   * Creates the invitation if the e-mail is new, then locks its row until commit, so concurrent
   * submissions of one address are decided one after the other (one e-mail, one row).
   */
  private async lockInvitation(manager: EntityManager, s: Submission): Promise<LockedInvitation> {
    await manager.query(
      `INSERT INTO invitations (name, email, email_normalized, phone, invited_by, referral, delivery) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (email_normalized) DO NOTHING`,
      [s.name, s.email, s.emailNormalized, s.phone, s.invitedBy, s.referral, s.delivery],
    );
    const [row]: LockedInvitation[] = await manager.query(
      `SELECT id, tokens_issued,
              COALESCE(email_owed_at > now() - make_interval(secs => $2::double precision / 1000), false) AS emailed_recently
         FROM invitations WHERE email_normalized = $1 FOR UPDATE`,
      [s.emailNormalized, this.config.INVITATION_RESEND_WINDOW_MS],
    );
    return row;
  }

  /** A new token for the invitation, stored as its hash only; the invitation's expired tokens are dropped on the way. */
  private async issueToken(manager: EntityManager, invitationId: string, issue: number): Promise<string> {
    const token = issueAccessToken();
    await manager.query(`DELETE FROM invitation_tokens WHERE invitation_id = $1 AND expires_at <= now()`, [invitationId]);
    await manager.query(`INSERT INTO invitation_tokens (token_hash, invitation_id, issue, expires_at) VALUES ($1, $2, $3, $4)`, [
      hashAccessToken(token),
      invitationId,
      issue,
      new Date(Date.now() + this.config.INVITATION_TOKEN_TTL_DAYS * DAY_MS),
    ]);
    return token;
  }
}
