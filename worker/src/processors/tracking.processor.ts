import { Processor } from '@nestjs/bullmq';
import { QUEUES } from '@contracts/jobs';
import { CONSUMER_OPTIONS, QueueConsumer } from './queue-consumer';

/** Consumes the tracking queue (lead attribution). */
@Processor(QUEUES.tracking, CONSUMER_OPTIONS)
export class TrackingProcessor extends QueueConsumer {}
