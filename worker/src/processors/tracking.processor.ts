import { Processor } from '@nestjs/bullmq';
import { QUEUES } from '@contracts/jobs';
import { QueueConfig } from '@core/config/config-sections';
import { CONSUMER_OPTIONS, QueueConsumer } from './queue-consumer';

/** Consumes the tracking queue (lead attribution), with its own, higher concurrency. */
@Processor(QUEUES.tracking, CONSUMER_OPTIONS)
export class TrackingProcessor extends QueueConsumer {
  protected override concurrency(config: QueueConfig): number {
    return config.TRACKING_CONCURRENCY;
  }
}
