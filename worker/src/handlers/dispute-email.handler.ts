import { Injectable, Logger } from '@nestjs/common';
import { DisputeChangedPayload, JOBS, SIDE_EFFECTS } from '@contracts/jobs';
import { site } from '@contracts/site/site';
import { ServerConfig } from '@core/config/config-sections';
import { RefundRepository } from '@core/database/repositories/refund.repository';
import { OnJob } from '../jobs/on-job.decorator';
import { SmtpMailer } from '../clients/smtp-mailer.client';
import { buildDisputeEmail } from '../messages/dispute-email.message';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';

export type DisputeEmailStatus = 'sent' | 'skipped: no brand.ownerEmail in site.json' | 'skipped: not configured' | `failed: ${string}`;

/**
 * E-mails the owner (site.json's brand.ownerEmail) that a dispute moved to a new status, once per
 * status through the ledger (`dispute-email:<dispute id>:<status>`). Without that address it
 * records that it did not, in `disputes.effects`, rather than pretend it did.
 */
@Injectable()
export class DisputeEmailHandler {
  private readonly logger = new Logger(DisputeEmailHandler.name);

  constructor(
    private readonly refunds: RefundRepository,
    private readonly ledger: ProviderCallLedger,
    private readonly config: ServerConfig,
    private readonly mailer: SmtpMailer,
  ) {}

  @OnJob(JOBS.disputeChanged)
  async notify({ disputeId, status }: DisputeChangedPayload): Promise<DisputeEmailStatus | 'skipped: dispute not found'> {
    const dispute = await this.refunds.findDispute(disputeId);
    if (!dispute) return 'skipped: dispute not found';
    const outcome = await this.send(dispute, status);
    await this.refunds.recordDisputeEffect(disputeId, `owner-email:${status}`, outcome);
    this.logger.log({ disputeId, orderId: dispute.order_id, status, outcome }, 'Dispute e-mail');
    return outcome;
  }

  private async send(
    dispute: NonNullable<Awaited<ReturnType<RefundRepository['findDispute']>>>,
    status: DisputeChangedPayload['status'],
  ): Promise<DisputeEmailStatus> {
    const owner = site.brand.ownerEmail;
    if (!owner) return 'skipped: no brand.ownerEmail in site.json';
    if (!this.mailer.configured) return 'skipped: not configured';
    const mail = buildDisputeEmail({
      orderId: dispute.order_id,
      providerDisputeId: dispute.provider_dispute_id,
      status,
      amountCents: dispute.amount_cents,
      currency: dispute.currency.toUpperCase(),
      testOrder: !dispute.livemode,
      ordersUrl: new URL('/admin/orders', this.config.PUBLIC_URL).toString(),
    });
    const effect = await this.ledger.run(SIDE_EFFECTS.disputeEmail, `${dispute.id}:${status}`, (key) =>
      this.mailer.send({ to: owner, ...mail, messageId: key }),
    );
    return effect.status === 'done' ? 'sent' : `failed: ${String(effect.detail.reason ?? 'rejected')}`;
  }
}
