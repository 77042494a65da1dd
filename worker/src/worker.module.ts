import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../../backend/src/config/app-config';
import { ConfigModule } from '../../backend/src/config/config.module';
import { DatabaseModule } from '../../backend/src/shared/database/database.module';
import { QueueModule } from '../../backend/src/shared/queue/queue.module';
import { TrackingProcessor } from './processors/tracking.processor';
import { AffiliateClient } from './services/affiliate.client';
import { JobLedger } from './services/job-ledger.service';
import { LeadAttributionService } from './services/lead-attribution.service';

/** Only this module registers @Processor classes: a registered processor starts a consumer. */
@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ pinoHttp: { level: config.LOG_LEVEL, base: { process: 'worker' } } }),
    }),
    DatabaseModule,
    QueueModule.forRole('worker'),
  ],
  providers: [AffiliateClient, JobLedger, LeadAttributionService, TrackingProcessor],
})
export class WorkerModule {}

export const WORKER_PROCESSORS = [TrackingProcessor];
