import { Processor } from '@nestjs/bullmq';
import { QUEUES } from '@contracts/jobs';
import { QueueConsumer } from './queue-consumer';

/** Consumes the invitations queue (invitation e-mails). */
@Processor(QUEUES.invitations)
export class InvitationsProcessor extends QueueConsumer {}
