import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '@core/config/app-config';
import { InvitationRepository, type InvitationSubmission, type LockedInvitation } from '@core/database/repositories/invitation.repository';
import { normalizeEmail } from '@contracts/email';
import type { InvitationGateResponse, InviteeResponse } from '@contracts/invitations';
import { JOBS } from '@contracts/jobs';
import { owe } from '@core/queue/owe';
import {
  hashAccessToken,
  invitationEmailContext,
  isWellFormedAccessToken,
  issueAccessToken,
  sealAccessToken,
} from '@core/invitations/access-token';
import { InvitationGateDto } from './dto/invitation-gate.dto';

const INVALID_LINK = 'This access link is invalid or has expired. Please request a new invitation.';
const DAY_MS = 24 * 3600 * 1000;

const blankToNull = (value: string | undefined): string | null => (value?.trim() ? value.trim() : null);

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
    private readonly invitations: InvitationRepository,
    private readonly config: AppConfig,
  ) {}

  submit(dto: InvitationGateDto): Promise<InvitationGateResponse> {
    const delivery = this.config.INVITATION_DELIVERY;
    const email = dto.email.trim();
    const s: InvitationSubmission = {
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

      await this.invitations.recordSubmission(manager, invitation.id, s, issue, owesEmail);
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
    const row = await this.invitations.findByLiveToken(hashAccessToken(token));
    if (!row) throw new NotFoundException(INVALID_LINK);
    if (!row.verified) await this.invitations.markVerified(row.id);
    return { email: row.email, name: row.name };
  }

  /**
   * Creates the invitation if the e-mail is new, then locks its row until commit, so concurrent
   * submissions of one address are decided one after the other (one e-mail, one row).
   */
  private async lockInvitation(manager: EntityManager, s: InvitationSubmission): Promise<LockedInvitation> {
    await this.invitations.insertIfNew(manager, s);
    return this.invitations.lockByEmail(manager, s.emailNormalized, this.config.INVITATION_RESEND_WINDOW_MS);
  }

  /** A new token for the invitation, stored as its hash only; the invitation's expired tokens are dropped on the way. */
  private async issueToken(manager: EntityManager, invitationId: string, issue: number): Promise<string> {
    const token = issueAccessToken();
    await this.invitations.insertToken(manager, {
      token_hash: hashAccessToken(token),
      invitation_id: invitationId,
      issue,
      expires_at: new Date(Date.now() + this.config.INVITATION_TOKEN_TTL_DAYS * DAY_MS),
    });
    return token;
  }
}
