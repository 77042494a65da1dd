import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { RedisConfig } from '../config/config-sections';
import { QUEUES } from '@contracts/jobs';
import { JobProducer } from './job-producer';
import { OutboxRelay } from './outbox-relay.service';
import { RedisPolicyCheck } from './redis-policy.check';
import { RegisteredQueueErrors } from './registered-queue-errors';
import { connectionFor } from './redis-options';
import { contractJobNames, RELAYED_JOBS } from './relayed-jobs';

/**
 * The API only writes rows and outbox entries; it keeps fail-fast queue handles for health checks.
 * The worker runs the outbox relay and registers every queue with @nestjs/bullmq, whose
 * @Processor consumers block on Redis and retry forever. Relaying in the worker keeps that CPU
 * off the request path (the worker runs at a lower OS priority). The worker starts its BullMQ
 * consumers itself (manualRegistration), once its job handler check has passed.
 */
@Module({})
export class QueueModule {
  static forRole(role: 'producer' | 'worker'): DynamicModule {
    if (role === 'producer') {
      return {
        module: QueueModule,
        global: true,
        providers: [JobProducer, RedisPolicyCheck],
        exports: [JobProducer],
      };
    }
    return {
      module: QueueModule,
      global: true,
      imports: [
        BullModule.forRootAsync({
          inject: [RedisConfig],
          useFactory: (config: RedisConfig) => ({ connection: connectionFor('worker', config) }),
          extraOptions: { manualRegistration: true },
        }),
        BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
      ],
      providers: [
        JobProducer,
        RedisPolicyCheck,
        OutboxRelay,
        RegisteredQueueErrors,
        { provide: RELAYED_JOBS, useFactory: contractJobNames },
      ],
      exports: [BullModule, JobProducer, OutboxRelay],
    };
  }
}
