import { Injectable } from '@nestjs/common';
import { AccountLinkEmailPayload, JOBS, SIDE_EFFECTS } from '@contracts/jobs';
import { ROUTES } from '@contracts/routes';
import { AppConfig } from '@core/config/app-config';
import { AccountAccessRepository } from '@core/database/repositories/account-access.repository';
import { accountLinkEmailContext, hashAccessToken, openAccessToken } from '@core/invitations/access-token';
import { OnJob } from '../jobs/on-job.decorator';
import { buildAccountLinkEmail } from '../messages/account-link-email.message';
import { SmtpMailer } from '../clients/smtp-mailer.client';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';

/**
 * Sends the account sign-in e-mail of one link token, once: the ledger key is
 * `account-link-email:<token id>`. The token arrives sealed in the job and is opened only to
 * build the message, after checking it against the stored hash. A link that expired or was used
 * before the job ran is not sent. SMTP being away throws, and the job retries with backoff.
 */
@Injectable()
export class AccountLinkEmailHandler {
  constructor(
    private readonly access: AccountAccessRepository,
    private readonly ledger: ProviderCallLedger,
    private readonly mailer: SmtpMailer,
    private readonly config: AppConfig,
  ) {}

  @OnJob(JOBS.accountLinkEmail)
  async send({ tokenId, sealedToken }: AccountLinkEmailPayload): Promise<string> {
    const row = await this.access.findLinkToken(tokenId);
    if (!row || !row.email) return 'skipped: link or buyer not found';
    if (!this.mailer.configured) return 'skipped: not configured';
    if (row.used_at || new Date(row.expires_at).getTime() <= Date.now()) return 'skipped: link expired or used';

    const token = openAccessToken(sealedToken, this.config.INVITATION_TOKEN_KEY_BYTES, accountLinkEmailContext(tokenId));
    if (hashAccessToken(token) !== row.token_hash) throw new Error('The sealed token is not the token stored for this account link');
    const link = new URL(ROUTES.account, this.config.PUBLIC_URL);
    link.searchParams.set('token', token);
    const mail = buildAccountLinkEmail(
      { link: link.toString(), validMinutes: this.config.ACCOUNT_LINK_TTL_MINUTES },
      { brandName: this.config.BRAND_NAME },
    );
    const to = row.email;
    const effect = await this.ledger.run(SIDE_EFFECTS.accountLinkEmail, tokenId, (key) =>
      this.mailer.send({ to, ...mail, messageId: key }),
    );
    return effect.status === 'done' ? 'sent' : `failed: ${String(effect.detail.reason ?? 'rejected')}`;
  }
}
