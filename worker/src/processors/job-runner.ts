import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import { JOB_QUEUE, JobName, QueueName } from '../../../backend/src/shared/contracts/jobs';
import type { JobLedger } from '../services/job-ledger.service';

const OUTBOX_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Jobs relayed from the outbox carry the row id as jobId; others have no row to stamp. */
const outboxId = (job: Job): string | null => (job.id && OUTBOX_ID.test(job.id) ? job.id : null);

export type JobHandlers = Partial<Record<JobName, (data: never) => Promise<unknown>>>;

/**
 * Shared by every processor: dispatch on the job name, stamp the outbox row done, and park it as
 * failed once BullMQ has no attempts left (so the relay stops offering it).
 */
export async function runJob(job: Job, handlers: JobHandlers, ledger: JobLedger, logger: Logger): Promise<unknown> {
  const handler = handlers[job.name as JobName] as ((data: unknown) => Promise<unknown>) | undefined;
  if (!handler) throw new UnrecoverableError(`No handler for job "${job.name}"`);
  try {
    const outcome = await handler(job.data);
    const rowId = outboxId(job);
    if (rowId) await ledger.markCompleted(rowId);
    logger.log({ jobId: job.id, job: job.name, attempt: job.attemptsMade + 1, outcome }, 'Job done');
    return outcome;
  } catch (err) {
    const message = (err as Error).message;
    const lastAttempt = err instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const rowId = outboxId(job);
    if (rowId) await (lastAttempt ? ledger.markFailed(rowId, message) : ledger.noteError(rowId, message));
    logger.warn({ jobId: job.id, job: job.name, attempt: job.attemptsMade + 1, lastAttempt, err: message }, 'Job failed');
    throw err;
  }
}

/** Fails worker start when a job name in the contract has no handler, or more than one. */
export function assertEveryJobHandled(processors: Array<{ queue: QueueName; jobs: JobName[] }>): void {
  const problems: string[] = [];
  for (const [job, queue] of Object.entries(JOB_QUEUE) as Array<[JobName, QueueName]>) {
    const owners = processors.filter((p) => p.queue === queue && p.jobs.includes(job));
    if (owners.length !== 1) problems.push(`job "${job}" on queue "${queue}" has ${owners.length} handlers`);
  }
  for (const p of processors) {
    for (const job of p.jobs) {
      if (JOB_QUEUE[job] !== p.queue) problems.push(`job "${job}" is handled on "${p.queue}" but belongs to "${JOB_QUEUE[job]}"`);
    }
  }
  if (problems.length) throw new Error(`Job handler check failed: ${problems.join('; ')}`);
}
