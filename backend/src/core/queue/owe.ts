import { JOB_QUEUE, JobItem } from '@contracts/jobs';
import type { SqlExecutor } from '../database/personal-data';
import { insertOutboxEntries } from '../database/repositories/outbox.repository';

/**
 * Records jobs the caller owes in the outbox, inside the caller's transaction: the jobs exist
 * exactly when the data that caused them is committed. The relay hands them to BullMQ later.
 * Resolves with the outbox ids, in the order of `jobs`.
 */
export async function owe(manager: SqlExecutor, jobs: readonly JobItem[]): Promise<string[]> {
  if (jobs.length === 0) return [];
  return insertOutboxEntries(
    manager,
    jobs.map((job) => ({ queue: JOB_QUEUE[job.name], job_name: job.name, payload: job.data })),
  );
}
