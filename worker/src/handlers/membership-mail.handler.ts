import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  JOBS,
  MembershipCanceledPayload,
  MembershipEndedPayload,
  PauseEndingPayload,
  PaymentFailedPayload,
  SIDE_EFFECTS,
  SideEffectKind,
} from '@contracts/jobs';
import { ServerConfig } from '@core/config/config-sections';
import { OrderRepository } from '@core/database/repositories/order.repository';
import { PAYMENT_GATEWAY, PaymentGateway } from '@core/payments/payment-gateway';
import { SmtpMailer } from '../clients/smtp-mailer.client';
import { OnJob } from '../jobs/on-job.decorator';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';
import {
  buildMembershipCanceledEmail,
  buildMembershipEndedEmail,
  buildMembershipResumingEmail,
  buildPaymentFailedEmail,
  MembershipMailLinks,
} from '../messages/membership-email.message';
import type { NoticeEmail } from '../messages/notice-email.message';

export type MembershipMailOutcome =
  | 'sent'
  | 'already sent'
  | 'skipped: not configured'
  | 'skipped: order not found'
  | 'skipped: invoice not found'
  | 'skipped: paid since'
  | 'skipped: paid in full'
  | 'skipped: resumed since'
  | 'skipped: canceled since'
  | `failed: ${string}`;

/**
 * What the buyer is told about a membership after checkout, each e-mail once through the
 * side-effect ledger: a renewal or instalment that could not be charged (keyed by the invoice,
 * however often the provider retries it), a membership set to end with its period (keyed by the
 * order and that date), and a membership that ended (keyed by the order and the ending).
 */
@Injectable()
export class MembershipMailHandler {
  private readonly logger = new Logger(MembershipMailHandler.name);

  constructor(
    private readonly orders: OrderRepository,
    private readonly ledger: ProviderCallLedger,
    private readonly mailer: SmtpMailer,
    private readonly config: ServerConfig,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  @OnJob(JOBS.paymentFailed)
  async paymentFailed({ orderId, invoiceId }: PaymentFailedPayload): Promise<MembershipMailOutcome> {
    const order = await this.orders.findById(orderId);
    if (!order) return 'skipped: order not found';
    const invoice = await this.gateway.readInvoice(invoiceId);
    if (!invoice) return 'skipped: invoice not found';
    // A retry that went through before this job ran: nothing to ask of the buyer any more.
    if (invoice.paid) return this.done({ orderId, invoiceId }, 'skipped: paid since');
    const mail = buildPaymentFailedEmail(
      { planId: order.plan_id, amountCents: invoice.amountCents, currency: invoice.currency, customerName: order.name },
      this.links(),
    );
    return this.send(SIDE_EFFECTS.paymentFailedEmail, invoiceId, order.email, mail, { orderId, invoiceId });
  }

  @OnJob(JOBS.membershipEnded)
  async membershipEnded({ orderId, sequence }: MembershipEndedPayload): Promise<MembershipMailOutcome> {
    const order = await this.orders.findById(orderId);
    if (!order) return 'skipped: order not found';
    // An instalment plan's schedule ends after its last charge: that is the plan completed, not
    // access ended. The provider says which (its events may still be on their way to us).
    if (order.instalments && order.subscription_id && !(await this.gateway.hasUnpaidInvoices(order.subscription_id))) {
      return this.done({ orderId }, 'skipped: paid in full');
    }
    const mail = buildMembershipEndedEmail({ planId: order.plan_id, endedAt: order.updated_at, customerName: order.name }, this.links());
    const ending = sequence === undefined ? orderId : `${orderId}:${sequence}`;
    return this.send(SIDE_EFFECTS.membershipEndedEmail, ending, order.email, mail, { orderId });
  }

  @OnJob(JOBS.membershipCanceled)
  async membershipCanceled({ orderId, endsAt }: MembershipCanceledPayload): Promise<MembershipMailOutcome> {
    const order = await this.orders.findById(orderId);
    if (!order) return 'skipped: order not found';
    // Resumed before this job ran: there is nothing to confirm any more.
    if (!order.cancel_at_period_end) return this.done({ orderId }, 'skipped: resumed since');
    const mail = buildMembershipCanceledEmail({ planId: order.plan_id, endsAt: new Date(endsAt), customerName: order.name }, this.links());
    return this.send(SIDE_EFFECTS.membershipCanceledEmail, `${orderId}:${endsAt.slice(0, 10)}`, order.email, mail, { orderId });
  }

  /** A pause ends in a few days: one reminder per pause, unless the membership was canceled meanwhile. */
  @OnJob(JOBS.pauseEnding)
  async pauseEnding({ orderId, pauseId, resumesAt }: PauseEndingPayload): Promise<MembershipMailOutcome> {
    const order = await this.orders.findById(orderId);
    if (!order) return 'skipped: order not found';
    if (order.status === 'canceled' || order.cancel_at_period_end) return this.done({ orderId }, 'skipped: canceled since');
    const mail = buildMembershipResumingEmail({ planId: order.plan_id, resumesAt: new Date(resumesAt), customerName: order.name }, this.links());
    return this.send(SIDE_EFFECTS.pauseEndingEmail, pauseId, order.email, mail, { orderId });
  }

  private async send(
    kind: SideEffectKind,
    subjectId: string,
    to: string,
    mail: NoticeEmail,
    logContext: Record<string, string>,
  ): Promise<MembershipMailOutcome> {
    if (!this.mailer.configured) return this.done(logContext, 'skipped: not configured');
    const effect = await this.ledger.run(kind, subjectId, (key) => this.mailer.send({ to, ...mail, messageId: key }));
    const outcome: MembershipMailOutcome =
      effect.status !== 'done' ? `failed: ${String(effect.detail.reason ?? 'rejected')}` : effect.replayed ? 'already sent' : 'sent';
    return this.done({ ...logContext, kind }, outcome);
  }

  private done<T extends MembershipMailOutcome>(logContext: Record<string, string>, outcome: T): T {
    this.logger.log({ ...logContext, outcome }, 'Membership e-mail');
    return outcome;
  }

  private links(): MembershipMailLinks {
    return {
      accountUrl: new URL('/account', this.config.PUBLIC_URL).toString(),
    };
  }
}
