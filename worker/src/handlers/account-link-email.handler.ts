import { Injectable, Logger } from '@nestjs/common';
import { AccountLinkEmailPayload, AccountLinkRequestPayload, JOBS, SIDE_EFFECTS } from '@contracts/jobs';
import { ROUTES } from '@contracts/routes';
import { AccessConfig, ServerConfig } from '@core/config/config-sections';
import { AccountAccessRepository } from '@core/database/repositories/account-access.repository';
import { OrderRepository } from '@core/database/repositories/order.repository';
import {
  accountLinkEmailContext,
  accountLinkRequestContext,
  deriveAccessToken,
  hashAccessToken,
  openAccessToken,
} from '@core/invitations/access-token';
import { OnJob } from '../jobs/on-job.decorator';
import { buildAccountLinkEmail } from '../messages/account-link-email.message';
import { SmtpMailer } from '../clients/smtp-mailer.client';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';

/**
 * Decides and sends a requested account sign-in link. The API owes this job for every address
 * alike; here an address that never ordered gets nothing, and one that was sent
 * ACCOUNT_LINKS_PER_EMAIL_PER_HOUR links in the past hour gets no more. Otherwise a token is
 * issued under the request's id, derived from it with INVITATION_TOKEN_KEY (so a retry mails the
 * same token; Postgres stores only its hash), and e-mailed once: the ledger key is
 * `account-link-email:<token id>`. A link that expired or was used before the job ran is not
 * sent. SMTP being away throws, and the job retries with backoff.
 */
@Injectable()
export class AccountLinkEmailHandler {
  private readonly logger = new Logger(AccountLinkEmailHandler.name);

  constructor(
    private readonly access: AccountAccessRepository,
    private readonly orders: OrderRepository,
    private readonly ledger: ProviderCallLedger,
    private readonly mailer: SmtpMailer,
    private readonly config: AccessConfig,
    private readonly server: ServerConfig,
  ) {}

  @OnJob(JOBS.accountLinkEmail)
  async send(payload: AccountLinkEmailPayload): Promise<string> {
    if (!this.mailer.configured) return 'skipped: not configured';
    const key = this.config.INVITATION_TOKEN_KEY_BYTES;
    let tokenId: string;
    let token: string;
    if ('tokenId' in payload) {
      tokenId = payload.tokenId;
      token = openAccessToken(payload.sealedToken, key, accountLinkEmailContext(tokenId));
    } else {
      tokenId = payload.requestId;
      token = deriveAccessToken(key, accountLinkEmailContext(tokenId));
      const refusal = await this.issue(payload, hashAccessToken(token));
      if (refusal) return refusal;
    }

    const row = await this.access.findLinkToken(tokenId);
    if (!row || !row.email) return 'skipped: link or buyer not found';
    if (row.used_at || new Date(row.expires_at).getTime() <= Date.now()) return 'skipped: link expired or used';
    if (hashAccessToken(token) !== row.token_hash) throw new Error('The token is not the token stored for this account link');
    const link = new URL(ROUTES.account, this.server.PUBLIC_URL);
    link.searchParams.set('token', token);
    const mail = buildAccountLinkEmail({ link: link.toString(), validMinutes: this.config.ACCOUNT_LINK_TTL_MINUTES });
    const to = row.email;
    const effect = await this.ledger.run(SIDE_EFFECTS.accountLinkEmail, tokenId, (key) =>
      this.mailer.send({ to, ...mail, messageId: key }),
    );
    return effect.status === 'done' ? 'sent' : `failed: ${String(effect.detail.reason ?? 'rejected')}`;
  }

  /** Stores the request's token unless the address may not have one; the reason when not. A retry finds its token stored. */
  private async issue({ requestId, sealedEmail }: AccountLinkRequestPayload, tokenHash: string): Promise<string | null> {
    if (await this.access.findLinkToken(requestId)) return null;
    const emailNormalized = openAccessToken(sealedEmail, this.config.INVITATION_TOKEN_KEY_BYTES, accountLinkRequestContext(requestId));
    if (!(await this.orders.hasOrders(emailNormalized))) return 'skipped: no order under this address';
    const maxPerHour = this.config.ACCOUNT_LINKS_PER_EMAIL_PER_HOUR;
    const { issued, issuedInPastHour } = await this.access.issueLinkTokenWithinHourlyLimit(
      {
        id: requestId,
        token_hash: tokenHash,
        email_normalized: emailNormalized,
        expires_at: new Date(Date.now() + this.config.ACCOUNT_LINK_TTL_MINUTES * 60_000),
      },
      maxPerHour,
    );
    if (issued) return null;
    // Counts only: the address stays out of the log.
    this.logger.log({ issuedInPastHour, maxPerHour }, 'Account sign-in link not sent: hourly limit for the address reached');
    return 'skipped: hourly limit for this address';
  }
}
