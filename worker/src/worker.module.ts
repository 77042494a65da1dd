import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ServerConfig } from '@core/config/config-sections';
import { ConfigModule } from '@core/config/config.module';
import { PaymentGatewayModule } from '@core/payments/payment-gateway.module';
import { DatabaseModule } from '@core/database/database.module';
import { OrdersModule } from '@core/orders/orders.module';
import { QueueModule } from '@core/queue/queue.module';
import { JobRegistry } from './jobs/job-registry';
import { JobRunner } from './processors/job-runner';
import { InvitationsProcessor } from './processors/invitations.processor';
import { PaymentsProcessor } from './processors/payments.processor';
import { TrackingProcessor } from './processors/tracking.processor';
import { AffiliateClient } from './clients/affiliate.client';
import { Ga4MeasurementClient } from './clients/ga4-measurement.client';
import { InvitationEmailHandler } from './handlers/invitation-email.handler';
import { AccountLinkEmailHandler } from './handlers/account-link-email.handler';
import { AbandonedCheckoutEmailHandler } from './handlers/abandoned-checkout-email.handler';
import { OutboxOutcomeRecorder } from './ledger/outbox-outcome-recorder';
import { AffiliateSignupHandler } from './handlers/affiliate-signup.handler';
import { SmtpMailer } from './clients/smtp-mailer.client';
import { MetaConversionsClient } from './clients/meta-conversions.client';
import { OrderPaidHandler } from './handlers/order-paid.handler';
import { PaymentEventHandler } from './handlers/payment-event.handler';
import { SandboxWebhookHandler } from './handlers/sandbox-webhook.handler';
import { ProviderCallLedger } from './ledger/provider-call-ledger';
import { PaymentReconciler } from './reconciler/payment-reconciler';
import { PauseReminders } from './reconciler/pause-reminders';
import { ForgetCustomerHandler } from './handlers/forget-customer.handler';
import { InstalmentsHandler } from './handlers/instalments.handler';
import { InstalmentStops } from './handlers/instalment-stops.service';
import { MembershipMailHandler } from './handlers/membership-mail.handler';
import { MembershipWebhookHandler } from './handlers/membership-webhook.handler';
import { MembershipWebhookClient } from './clients/membership-webhook.client';
import { DataRetentionHandler } from './handlers/data-retention.handler';
import { DisputeEmailHandler } from './handlers/dispute-email.handler';
import { RefundEffectsHandler } from './handlers/refund-effects.handler';
import { RefundEventsService } from './handlers/refund-events.service';
import { PaymentRepairHandler } from './handlers/payment-repair.handler';
import { MaintenanceProcessor } from './processors/maintenance.processor';
import { RetentionSchedule } from './jobs/retention-schedule';
import { WorkerHeartbeat } from './processors/heartbeat';
import { WorkerMetrics } from './metrics/worker-metrics';
import { WorkerMetricsServer } from './metrics/worker-metrics.server';
import { PaymentMetricsModule } from '@core/metrics/payment-metrics';

/**
 * Only this module registers @Processor classes: a registered processor starts a consumer.
 * JobRegistry finds the @OnJob handlers among these providers and checks them before any
 * consumer starts.
 */
@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({
      inject: [ServerConfig],
      useFactory: (config: ServerConfig) => ({ pinoHttp: { level: config.LOG_LEVEL, base: { process: 'worker' } } }),
    }),
    DatabaseModule.forRole('worker'),
    OrdersModule,
    PaymentMetricsModule,
    QueueModule.forRole('worker'),
    DiscoveryModule,
    PaymentGatewayModule,
  ],
  providers: [
    JobRegistry,
    JobRunner,
    WorkerMetrics,
    WorkerMetricsServer,
    OutboxOutcomeRecorder,
    ProviderCallLedger,
    AffiliateClient,
    MetaConversionsClient,
    Ga4MeasurementClient,
    SmtpMailer,
    AffiliateSignupHandler,
    PaymentEventHandler,
    SandboxWebhookHandler,
    OrderPaidHandler,
    InvitationEmailHandler,
    AccountLinkEmailHandler,
    AbandonedCheckoutEmailHandler,
    TrackingProcessor,
    PaymentsProcessor,
    InvitationsProcessor,
    PaymentReconciler,
    PauseReminders,
    ForgetCustomerHandler,
    InstalmentsHandler,
    InstalmentStops,
    MembershipMailHandler,
    MembershipWebhookHandler,
    MembershipWebhookClient,
    DataRetentionHandler,
    RefundEventsService,
    RefundEffectsHandler,
    DisputeEmailHandler,
    PaymentRepairHandler,
    MaintenanceProcessor,
    RetentionSchedule,
    WorkerHeartbeat,
  ],
})
export class WorkerModule {}
