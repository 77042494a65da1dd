import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BATCH_MAX, Coalescer } from '../jobs/coalescer';

/**
 * Stamps the outbox row behind a job: done, failed for good, or the last error of a retry. The
 * side effects themselves are recorded by each service in `side_effects` under a unique key.
 * Every job ends with a "done" stamp, so concurrent jobs share that statement (and its commit).
 */
@Injectable()
export class OutboxOutcomeRecorder {
  private readonly completions = new Coalescer<string, void>(
    async (ids) => {
      await this.dataSource.query(`UPDATE outbox SET completed_at = now() WHERE id = ANY($1::uuid[]) AND completed_at IS NULL`, [ids]);
      return ids.map(() => undefined);
    },
    { max: BATCH_MAX },
  );

  constructor(private readonly dataSource: DataSource) {}

  /** Resolves once the stamp is committed. */
  markCompleted(outboxId: string): Promise<void> {
    return this.completions.run(outboxId);
  }

  async markFailed(outboxId: string, error: string): Promise<void> {
    await this.dataSource.query(`UPDATE outbox SET failed_at = now(), last_error = $2 WHERE id = $1::uuid`, [
      outboxId,
      error.slice(0, 2000),
    ]);
  }

  async noteError(outboxId: string, error: string): Promise<void> {
    await this.dataSource.query(`UPDATE outbox SET last_error = $2 WHERE id = $1::uuid`, [outboxId, error.slice(0, 2000)]);
  }
}
