import { Injectable } from '@nestjs/common';
import { InvitationEmailPayload, JOBS, SIDE_EFFECTS } from '@contracts/jobs';
import { AccessConfig, ServerConfig } from '@core/config/config-sections';
import { InvitationRepository } from '@core/database/repositories/invitation.repository';
import { hashAccessToken, invitationEmailContext, openAccessToken } from '@core/invitations/access-token';
import { OnJob } from '../jobs/on-job.decorator';
import { buildInvitationEmail } from '../messages/invitation-email.message';
import { SmtpMailer } from '../clients/smtp-mailer.client';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';

/**
 * Sends the invitation e-mail of one issued token, once: the ledger key is
 * `invitation-email:<invitation id>:<issue>`. The token arrives sealed in the job and is opened
 * only to build the message; it is checked against the stored hash first, so a payload that
 * does not belong to this token never goes out. SMTP being away throws, and the job retries with
 * backoff; what became of the e-mail is kept in invitations.email_status.
 */
@Injectable()
export class InvitationEmailHandler {
  constructor(
    private readonly invitations: InvitationRepository,
    private readonly ledger: ProviderCallLedger,
    private readonly mailer: SmtpMailer,
    private readonly config: AccessConfig,
    private readonly server: ServerConfig,
  ) {}

  @OnJob(JOBS.invitationEmail)
  async send({ invitationId, issue, sealedToken }: InvitationEmailPayload): Promise<string> {
    const row = await this.invitations.findIssue(invitationId, issue);
    if (!row) return 'skipped: invitation or token not found';
    if (!this.mailer.configured) return this.record(invitationId, 'skipped: not configured', false);
    if (new Date(row.expires_at).getTime() <= Date.now()) return this.record(invitationId, 'skipped: token expired', false);

    const token = openAccessToken(sealedToken, this.config.INVITATION_TOKEN_KEY_BYTES, invitationEmailContext(invitationId, issue));
    if (hashAccessToken(token) !== row.token_hash) throw new Error('The sealed token is not the token stored for this invitation issue');
    const link = new URL('/blackcard', this.server.PUBLIC_URL);
    link.searchParams.set('token', token);
    const mail = buildInvitationEmail({ name: row.name, link: link.toString(), expiresAt: new Date(row.expires_at) });

    const effect = await this.ledger.run(SIDE_EFFECTS.invitationEmail, `${invitationId}:${issue}`, (key) =>
      this.mailer.send({ to: row.email, ...mail, messageId: key }),
    );
    if (effect.status === 'done') return this.record(invitationId, 'sent', !effect.replayed);
    return this.record(invitationId, `failed: ${String(effect.detail.reason ?? 'rejected')}`, false);
  }

  private async record(invitationId: string, status: string, delivered: boolean): Promise<string> {
    await this.invitations.recordEmailStatus(invitationId, status, delivered);
    return status;
  }
}
