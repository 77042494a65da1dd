import { Processor } from '@nestjs/bullmq';
import { QUEUES } from '@contracts/jobs';
import { QueueConsumer } from './queue-consumer';

/** Consumes the tracking queue (lead attribution). */
@Processor(QUEUES.tracking)
export class TrackingProcessor extends QueueConsumer {}
