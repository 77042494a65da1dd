import { JOB_QUEUE, JobItem } from '@contracts/jobs';
import type { SqlExecutor } from '../database/personal-data';
import { insertOutboxEntries } from '../database/repositories/outbox.repository';

/** A job and, for one owed for later, how many seconds after the commit it is due. */
export type OwedJob = JobItem & { delaySeconds?: number };

/**
 * Records jobs the caller owes in the outbox, inside the caller's transaction: the jobs exist
 * exactly when the data that caused them is committed. The relay hands them to BullMQ later (a
 * job with `delaySeconds` as a delayed job due then). Resolves with the outbox ids, in the
 * order of `jobs`.
 */
export async function owe(manager: SqlExecutor, jobs: readonly OwedJob[]): Promise<string[]> {
  if (jobs.length === 0) return [];
  return insertOutboxEntries(
    manager,
    jobs.map((job) => ({ queue: JOB_QUEUE[job.name], job_name: job.name, payload: job.data, delay_seconds: job.delaySeconds ?? null })),
  );
}

/**
 * Jobs that several steps of one transaction owe, written to the outbox together by `flush` in
 * one statement (an order's first payment owes its effects and its membership's webhook).
 */
export class OwedJobs {
  private readonly jobs: OwedJob[] = [];

  add(...jobs: OwedJob[]): void {
    this.jobs.push(...jobs);
  }

  /** Owes what was added, in the caller's transaction, and starts afresh. */
  async flush(manager: SqlExecutor): Promise<void> {
    await owe(manager, this.jobs.splice(0));
  }
}
