import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '@core/config/app-config';
import { ConfigModule } from '@core/config/config.module';
import { PaymentGatewayModule } from '@core/payments/payment-gateway.module';
import { DatabaseModule } from '@core/database/database.module';
import { QueueModule } from '@core/queue/queue.module';
import { JobRegistry } from './jobs/job-registry';
import { JobRunner } from './processors/job-runner';
import { InvitationsProcessor } from './processors/invitations.processor';
import { PaymentsProcessor } from './processors/payments.processor';
import { TrackingProcessor } from './processors/tracking.processor';
import { AffiliateClient } from './services/affiliate.client';
import { Ga4MeasurementClient } from './services/ga4-measurement.client';
import { InvitationEmailService } from './services/invitation-email.service';
import { JobLedger } from './services/job-ledger.service';
import { LeadAttributionService } from './services/lead-attribution.service';
import { MailerService } from './services/mailer.service';
import { MetaConversionsClient } from './services/meta-conversions.client';
import { OrderPaidService } from './services/order-paid.service';
import { PaymentEventService } from './services/payment-event.service';
import { SandboxWebhookService } from './services/sandbox-webhook.service';
import { SideEffectLedger } from './services/side-effect-ledger.service';

/**
 * Only this module registers @Processor classes: a registered processor starts a consumer.
 * JobRegistry finds the @OnJob handlers among these providers and checks them before any
 * consumer starts.
 */
@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ pinoHttp: { level: config.LOG_LEVEL, base: { process: 'worker' } } }),
    }),
    DatabaseModule,
    QueueModule.forRole('worker'),
    DiscoveryModule,
    PaymentGatewayModule,
  ],
  providers: [
    JobRegistry,
    JobRunner,
    JobLedger,
    SideEffectLedger,
    AffiliateClient,
    MetaConversionsClient,
    Ga4MeasurementClient,
    MailerService,
    LeadAttributionService,
    PaymentEventService,
    SandboxWebhookService,
    OrderPaidService,
    InvitationEmailService,
    TrackingProcessor,
    PaymentsProcessor,
    InvitationsProcessor,
  ],
})
export class WorkerModule {}
