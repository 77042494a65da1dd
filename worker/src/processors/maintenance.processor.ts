import { Processor } from '@nestjs/bullmq';
import { QUEUES } from '@contracts/jobs';
import { CONSUMER_OPTIONS, QueueConsumer } from './queue-consumer';

/** Consumes the maintenance queue (the daily retention pass), one job at a time per worker. */
@Processor(QUEUES.maintenance, CONSUMER_OPTIONS)
export class MaintenanceProcessor extends QueueConsumer {
  protected override concurrency(): number {
    return 1;
  }
}
