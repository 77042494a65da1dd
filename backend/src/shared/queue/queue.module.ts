import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { QUEUES } from '../contracts/jobs';
import { defaultJobOptions } from './job-options';
import { JobProducer } from './job-producer';
import { OutboxRelay } from './outbox-relay.service';
import { RedisPolicyCheck } from './redis-policy.check';
import { connectionFor } from './redis-options';

/**
 * Registers every queue of the contract. The API registers them as a producer (fail fast while
 * Redis is away); the worker as a consumer (block and retry forever).
 */
@Module({})
export class QueueModule {
  static forRole(role: 'producer' | 'worker'): DynamicModule {
    return {
      module: QueueModule,
      imports: [
        BullModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            connection: connectionFor(role, config.REDIS_URL),
            defaultJobOptions: defaultJobOptions(config),
          }),
        }),
        BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
      ],
      global: true,
      // Only the API relays the outbox; the worker consumes what the relay dispatched.
      providers: role === 'producer' ? [JobProducer, RedisPolicyCheck, OutboxRelay] : [JobProducer, RedisPolicyCheck],
      exports: role === 'producer' ? [BullModule, JobProducer, OutboxRelay] : [BullModule, JobProducer],
    };
  }
}
