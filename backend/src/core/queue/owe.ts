import type { EntityManager } from 'typeorm';
import { JOB_QUEUE, JobItem } from '@contracts/jobs';

/**
 * Records jobs the caller owes in the outbox, inside the caller's transaction: the jobs exist
 * exactly when the data that caused them is committed. The relay hands them to BullMQ later.
 * Resolves with the outbox ids, in the order of `jobs`.
 */
export async function owe(manager: EntityManager, jobs: readonly JobItem[]): Promise<string[]> {
  if (jobs.length === 0) return [];
  const rows: Array<{ id: string }> = await manager.query(
    `INSERT INTO outbox (queue, job_name, payload)
     SELECT queue, job_name, payload FROM unnest($1::text[], $2::text[], $3::jsonb[]) WITH ORDINALITY AS j(queue, job_name, payload, ord)
      ORDER BY ord
     RETURNING id`,
    [jobs.map((job) => JOB_QUEUE[job.name]), jobs.map((job) => job.name), jobs.map((job) => JSON.stringify(job.data))],
  );
  return rows.map((row) => row.id);
}
