import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Stamps the outbox row behind a job: done, failed for good, or the last error of a retry. The
 * side effects themselves are recorded by each service in `side_effects` under a unique key.
 */
@Injectable()
export class JobLedger {
  constructor(private readonly dataSource: DataSource) {}

  async markCompleted(outboxId: string): Promise<void> {
    await this.dataSource.query(`UPDATE outbox SET completed_at = now() WHERE id = $1::uuid AND completed_at IS NULL`, [outboxId]);
  }

  async markFailed(outboxId: string, error: string): Promise<void> {
    await this.dataSource.query(`UPDATE outbox SET failed_at = now(), last_error = $2 WHERE id = $1::uuid`, [outboxId, error.slice(0, 2000)]);
  }

  async noteError(outboxId: string, error: string): Promise<void> {
    await this.dataSource.query(`UPDATE outbox SET last_error = $2 WHERE id = $1::uuid`, [outboxId, error.slice(0, 2000)]);
  }
}
