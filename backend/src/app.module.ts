import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { LoadSheddingModule } from './common/load-shedding/load-shedding.module';
import { RateLimitModule } from './common/rate-limit.module';
import { ServerConfig } from '@core/config/config-sections';
import { ConfigModule } from '@core/config/config.module';
import { AccountModule } from './modules/account/account.module';
import { AdminModule } from './modules/admin/admin.module';
import { AdminBillingModule } from './modules/admin-billing/admin-billing.module';
import { AdminCouponsModule } from './modules/admin-coupons/admin-coupons.module';
import { AdminDashboardModule } from './modules/admin-dashboard/admin-dashboard.module';
import { BeaconModule } from './modules/beacon/beacon.module';
import { HealthModule } from './modules/health/health.module';
import { InvitationsModule } from './modules/invitations/invitations.module';
import { LeadsModule } from './modules/leads/leads.module';
import { OpsModule } from './modules/ops/ops.module';
import { PaymentsModule } from './modules/payments/payments.module';
import { TestimonialsModule } from './modules/testimonials/testimonials.module';
import { UnsubscribeModule } from './modules/unsubscribe/unsubscribe.module';
import { DatabaseModule } from '@core/database/database.module';
import { OrdersModule } from '@core/orders/orders.module';
import { QueueModule } from '@core/queue/queue.module';
import { PaymentMetricsModule } from '@core/metrics/payment-metrics';

@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({
      inject: [ServerConfig],
      useFactory: (config: ServerConfig) => ({
        // Application logs only: request lines come from Fastify's own pino logger (see
        // app.factory.ts), which costs far less per request than an Express-style middleware.
        forRoutes: [],
        pinoHttp: { level: config.LOG_LEVEL, base: { process: 'api' } },
      }),
    }),
    DatabaseModule.forRole('api'),
    OrdersModule,
    PaymentMetricsModule,
    QueueModule.forRole('producer'),
    RateLimitModule,
    LoadSheddingModule,
    AccountModule,
    AdminModule,
    AdminBillingModule,
    AdminCouponsModule,
    AdminDashboardModule,
    BeaconModule,
    HealthModule,
    InvitationsModule,
    LeadsModule,
    OpsModule,
    PaymentsModule,
    TestimonialsModule,
    UnsubscribeModule,
  ],
})
export class AppModule {}
