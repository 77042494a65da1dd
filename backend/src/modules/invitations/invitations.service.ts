import { Injectable, NotFoundException } from '@nestjs/common';
import { AccessConfig } from '@core/config/config-sections';
import { InvitationRepository } from '@core/database/repositories/invitation.repository';
import { normalizeEmail } from '@contracts/email';
import type { InvitationGateResponse, InviteeResponse } from '@contracts/invitations';
import { hashAccessToken, isWellFormedAccessToken } from '@core/invitations/access-token';
import { InvitationGateDto } from './dto/invitation-gate.dto';
import { InvitationBatchWriter } from './invitation-batch-writer';

const INVALID_LINK = 'This access link is invalid or has expired. Please request a new invitation.';

const blankToNull = (value: string | undefined): string | null => (value?.trim() ? value.trim() : null);

/**
 * The invitation gate. One invitation per normalised e-mail; each submission updates it. The
 * invitation e-mail (with a fresh token) is owed unless one was owed within
 * INVITATION_RESEND_WINDOW_MS, so repeats send nothing. With instant delivery every submission
 * also answers with a token: a fresh one, because only hashes are kept. Earlier tokens stay valid
 * until they expire, so the e-mailed link keeps working after a resubmission. Submissions are
 * written in batches (`InvitationBatchWriter`), which decide all of this in the database.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly writer: InvitationBatchWriter,
    private readonly invitations: InvitationRepository,
    private readonly config: AccessConfig,
  ) {}

  async submit(dto: InvitationGateDto): Promise<InvitationGateResponse> {
    const delivery = this.config.INVITATION_DELIVERY;
    const email = dto.email.trim();
    const token = await this.writer.write({
      name: dto.name.trim(),
      email,
      emailNormalized: normalizeEmail(email),
      phone: blankToNull(dto.phone),
      invitedBy: blankToNull(dto.invitedBy),
      referral: blankToNull(dto.referral),
      delivery,
    });
    return delivery === 'instant' && token !== null ? { accessToken: token } : {};
  }

  /** The invitee of a live token; 404 for anything else, without telling unknown from expired. */
  async invitee(token: string): Promise<InviteeResponse> {
    if (!isWellFormedAccessToken(token)) throw new NotFoundException(INVALID_LINK);
    const row = await this.invitations.findByLiveToken(hashAccessToken(token));
    if (!row) throw new NotFoundException(INVALID_LINK);
    if (!row.verified) await this.invitations.markVerified(row.id);
    return { email: row.email, name: row.name };
  }
}
