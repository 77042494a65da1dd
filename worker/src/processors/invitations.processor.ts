import { Processor } from '@nestjs/bullmq';
import { QUEUES } from '@contracts/jobs';
import { CONSUMER_OPTIONS, QueueConsumer } from './queue-consumer';

/** Consumes the invitations queue (invitation e-mails). */
@Processor(QUEUES.invitations, CONSUMER_OPTIONS)
export class InvitationsProcessor extends QueueConsumer {}
