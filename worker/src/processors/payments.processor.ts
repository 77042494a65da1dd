import { Processor } from '@nestjs/bullmq';
import { QUEUES } from '@contracts/jobs';
import { QueueConsumer } from './queue-consumer';

/** Consumes the payments queue (webhook delivery and application, paid side effects). */
@Processor(QUEUES.payments)
export class PaymentsProcessor extends QueueConsumer {}
