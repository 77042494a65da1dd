import { Injectable } from '@nestjs/common';
import { AbandonedCheckoutEmailPayload, JOBS, SIDE_EFFECTS } from '@contracts/jobs';
import { DEFAULT_PLAN_ID, planOf } from '@contracts/plans';
import { ROUTES } from '@contracts/routes';
import { AccessConfig, ServerConfig } from '@core/config/config-sections';
import { LeadRepository } from '@core/database/repositories/lead.repository';
import { unsubscribeKey, unsubscribeLink } from '@core/marketing/unsubscribe-token';
import { OnJob } from '../jobs/on-job.decorator';
import { buildAbandonedCheckoutEmail } from '../messages/abandoned-checkout-email.message';
import { SmtpMailer } from '../clients/smtp-mailer.client';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';

/**
 * Sends a lead its one abandoned-checkout reminder, ABANDONED_CHECKOUT_DELAY_S after it was
 * saved (the job is owed delayed, in the lead's transaction). Once per lead ever: the ledger key
 * is `abandoned-checkout-email:<lead id>`. Decided at send time: an address that has paid or
 * unsubscribed since gets nothing. The link brings the lead back to /checkout with its plan
 * (leads record none, so the default plan), e-mail and name, and no token.
 */
@Injectable()
export class AbandonedCheckoutEmailHandler {
  private readonly unsubscribeKey: Buffer;

  constructor(
    private readonly leads: LeadRepository,
    private readonly ledger: ProviderCallLedger,
    private readonly mailer: SmtpMailer,
    config: AccessConfig,
    private readonly server: ServerConfig,
  ) {
    this.unsubscribeKey = unsubscribeKey(config.INVITATION_TOKEN_KEY_BYTES);
  }

  @OnJob(JOBS.abandonedCheckoutEmail)
  async send({ leadId }: AbandonedCheckoutEmailPayload): Promise<string> {
    const lead = await this.leads.findReminderRecipient(leadId);
    if (!lead) return 'skipped: lead not found';
    if (lead.paid) return 'skipped: paid';
    if (lead.unsubscribed) return 'skipped: unsubscribed';
    if (!this.mailer.configured) return 'skipped: not configured';

    const plan = planOf(DEFAULT_PLAN_ID);
    const checkout = new URL(ROUTES.checkout, this.server.PUBLIC_URL);
    checkout.searchParams.set('plan', plan.id);
    checkout.searchParams.set('email', lead.email);
    if (lead.name) checkout.searchParams.set('name', lead.name);
    const mail = buildAbandonedCheckoutEmail({
      name: lead.name,
      planName: plan.name,
      checkoutLink: checkout.toString(),
      unsubscribeLink: unsubscribeLink(this.server.PUBLIC_URL, lead.email, this.unsubscribeKey),
    });
    const to = lead.email;
    const effect = await this.ledger.run(SIDE_EFFECTS.abandonedCheckoutEmail, leadId, (key) =>
      this.mailer.send({ to, ...mail, messageId: key }),
    );
    if (effect.replayed) return effect.status === 'done' ? 'skipped: already sent' : 'skipped: refused before';
    return effect.status === 'done' ? 'sent' : `failed: ${String(effect.detail.reason ?? 'rejected')}`;
  }
}
