import { ConflictException, HttpException, Injectable, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EXHAUSTED_JOBS_SHOWN, type ExhaustedJobList, type ExhaustedJobRetry } from '@contracts/admin';
import { JOB_QUEUE, type JobName } from '@contracts/jobs';
import { AuditRepository } from '@core/database/repositories/audit.repository';
import { type ExhaustedOutboxRow, OutboxRepository } from '@core/database/repositories/outbox.repository';
import { JobProducer } from '@core/queue/job-producer';
import { withTimeout } from '@core/runtime/with-timeout';

const REDIS_TIMEOUT_MS = 5000;
/** States in which BullMQ is about to run the job (or runs it): a retry now would have no effect. */
const LIVE_STATES = new Set(['active', 'waiting', 'waiting-children', 'delayed', 'prioritized']);

const NOT_EXHAUSTED = 'No job that gave up has this id; it may have been retried already.';
const ALREADY_RETRYING = 'This job is already queued or running again; refresh the list in a moment.';
const QUEUE_UNREACHABLE = 'The queue cannot be reached right now, so the job was not retried. Try again in a moment.';

/**
 * The jobs that gave up, from the outbox (which keeps them however long Redis keeps its failed
 * list), and their retry: the job leaves BullMQ's failed list, its outbox row is offered again
 * with the audit entry in one transaction, and the relay hands it to BullMQ under the same job
 * id, with a fresh retry horizon. Its side effects keep their ledger keys, so whatever it had
 * already done is not done again.
 */
@Injectable()
export class ExhaustedJobsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxRepository,
    private readonly audit: AuditRepository,
    private readonly producer: JobProducer,
  ) {}

  async list(): Promise<ExhaustedJobList> {
    const { rows, total } = await this.outbox.exhausted(EXHAUSTED_JOBS_SHOWN);
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        queue: row.queue,
        job: row.job_name,
        reason: row.last_error,
        owedAt: new Date(row.created_at).toISOString(),
        gaveUpAt: new Date(row.failed_at).toISOString(),
        dispatchCount: row.dispatch_count,
      })),
    };
  }

  async retry(id: string, adminId: string, clientIp: string): Promise<ExhaustedJobRetry> {
    const row = await this.outbox.findExhausted(id);
    if (!row) throw new NotFoundException(NOT_EXHAUSTED);
    await this.forgetFailedJob(row);
    const target = `job:${row.queue}/${row.id}`;
    const reopened = await this.dataSource.transaction(async (manager) => {
      if (!(await this.outbox.reopenExhausted(manager, id))) return false;
      await this.audit.record({ adminId, action: 'queue.retry', target, clientIp }, manager);
      return true;
    });
    if (!reopened) throw new NotFoundException(NOT_EXHAUSTED);
    return { id: row.id, queue: row.queue, job: row.job_name };
  }

  /**
   * BullMQ ignores an added job whose id it still holds, so the given-up job leaves its failed
   * list first; nothing is changed when Redis cannot be reached. A job the queue page retried
   * meanwhile is left to run.
   */
  private async forgetFailedJob(row: ExhaustedOutboxRow): Promise<void> {
    // A job this build does not know is relayed (and its old copy found) by a worker that does.
    if (!(row.job_name in JOB_QUEUE)) return;
    const queue = this.producer.queue(JOB_QUEUE[row.job_name as JobName]);
    try {
      const job = await withTimeout(queue.getJob(row.id), REDIS_TIMEOUT_MS, 'Reading the job');
      if (!job) return;
      if (LIVE_STATES.has(await withTimeout(job.getState(), REDIS_TIMEOUT_MS, 'Reading the job state'))) {
        throw new ConflictException(ALREADY_RETRYING);
      }
      await withTimeout(job.remove(), REDIS_TIMEOUT_MS, 'Removing the failed job');
    } catch (err) {
      if (err instanceof HttpException) throw err;
      throw new ServiceUnavailableException(QUEUE_UNREACHABLE);
    }
  }
}
