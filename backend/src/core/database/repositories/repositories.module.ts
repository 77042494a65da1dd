import { Global, Module } from '@nestjs/common';
import { PERSONAL_DATA_OWNERS, type PersonalDataOwner, type TableColumns } from '../personal-data';
import { ACCOUNT_ACCESS_TABLES, AccountAccessRepository } from './account-access.repository';
import { ADMIN_ACCOUNT_TABLES, AdminAccountRepository } from './admin-account.repository';
import { AUDIT_TABLES, AuditRepository } from './audit.repository';
import { CANCELLATION_FEEDBACK_TABLES, CancellationFeedbackRepository } from './cancellation-feedback.repository';
import { COUPON_TABLES, CouponRepository } from './coupon.repository';
import { EMAIL_SUPPRESSION_TABLES, EmailSuppressionRepository } from './email-suppression.repository';
import { FUNNEL_EVENT_TABLES, FunnelEventRepository } from './funnel-event.repository';
import { INVITATION_TABLES, InvitationRepository } from './invitation.repository';
import { LEAD_TABLES, LeadRepository } from './lead.repository';
import { MEMBERSHIP_TABLES, MembershipRepository } from './membership.repository';
import { OrderLifecycleRepository } from './order-lifecycle.repository';
import { OrderReconcileRepository } from './order-reconcile.repository';
import { OrderReportRepository } from './order-report.repository';
import { ORDER_TABLES, OrderRepository } from './order.repository';
import { OUTBOX_TABLES, OutboxRepository } from './outbox.repository';
import { PastDueRepository } from './past-due.repository';
import { PAYMENT_EVENT_TABLES, PaymentEventRepository } from './payment-event.repository';
import { PaymentRepository } from './payment.repository';
import { PROVIDER_CALL_TABLES, ProviderCallRepository } from './provider-call.repository';
import { REFUND_TABLES, RefundRepository } from './refund.repository';
import { RevenueReportRepository } from './revenue-report.repository';
import { SANDBOX_OBJECT_TABLES, SandboxObjectRepository } from './sandbox-object.repository';
import { TESTIMONIAL_TABLES, TestimonialRepository } from './testimonial.repository';

/**
 * Every repository, for the API and the worker alike. The only place SQL lives (with the
 * migrations); each table has one owner here and one row type.
 */
const REPOSITORIES = [
  LeadRepository,
  InvitationRepository,
  OrderRepository,
  OrderLifecycleRepository,
  OrderReconcileRepository,
  OrderReportRepository,
  RevenueReportRepository,
  PaymentRepository,
  MembershipRepository,
  PastDueRepository,
  RefundRepository,
  SandboxObjectRepository,
  FunnelEventRepository,
  TestimonialRepository,
  AdminAccountRepository,
  AccountAccessRepository,
  EmailSuppressionRepository,
  AuditRepository,
  PaymentEventRepository,
  OutboxRepository,
  ProviderCallRepository,
  CouponRepository,
  CancellationFeedbackRepository,
];

/**
 * Repositories that store personal data, composed by the admin's export and erase in this order:
 * the export's sections come in it, and the documents keyed by other rows' ids (webhook events,
 * the outbox, the side-effect ledger) come last, to find the person through the ids found before.
 */
const PERSONAL_DATA_OWNER_CLASSES = [
  LeadRepository,
  InvitationRepository,
  OrderRepository,
  // After the orders: the answers are found through the order ids found there.
  CancellationFeedbackRepository,
  TestimonialRepository,
  AdminAccountRepository,
  AccountAccessRepository,
  EmailSuppressionRepository,
  AuditRepository,
  PaymentEventRepository,
  OutboxRepository,
  ProviderCallRepository,
] satisfies Array<(typeof REPOSITORIES)[number] & (new (...args: never[]) => PersonalDataOwner)>;

/**
 * Every text, varchar and json(b) column of every table, each declared personal or not by its
 * owner; a test checks the list against the schema.
 */
export const ALL_TABLE_COLUMNS: readonly TableColumns[] = [
  ...LEAD_TABLES,
  ...INVITATION_TABLES,
  ...ORDER_TABLES,
  ...MEMBERSHIP_TABLES,
  ...REFUND_TABLES,
  ...SANDBOX_OBJECT_TABLES,
  ...FUNNEL_EVENT_TABLES,
  ...TESTIMONIAL_TABLES,
  ...ADMIN_ACCOUNT_TABLES,
  ...ACCOUNT_ACCESS_TABLES,
  ...AUDIT_TABLES,
  ...PAYMENT_EVENT_TABLES,
  ...EMAIL_SUPPRESSION_TABLES,
  ...OUTBOX_TABLES,
  ...PROVIDER_CALL_TABLES,
  ...COUPON_TABLES,
  ...CANCELLATION_FEEDBACK_TABLES,
];

@Global()
@Module({
  providers: [
    ...REPOSITORIES,
    {
      provide: PERSONAL_DATA_OWNERS,
      inject: PERSONAL_DATA_OWNER_CLASSES,
      useFactory: (...owners: PersonalDataOwner[]) => owners,
    },
  ],
  exports: [...REPOSITORIES, PERSONAL_DATA_OWNERS],
})
export class RepositoriesModule {}
