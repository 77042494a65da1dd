import { Processor } from '@nestjs/bullmq';
import { QUEUES } from '@contracts/jobs';
import { CONSUMER_OPTIONS, QueueConsumer } from './queue-consumer';

/** Consumes the payments queue (webhook delivery and application, paid side effects). */
@Processor(QUEUES.payments, CONSUMER_OPTIONS)
export class PaymentsProcessor extends QueueConsumer {}
