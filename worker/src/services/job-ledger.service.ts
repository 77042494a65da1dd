import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/**
 * What the worker has done, kept in Postgres: a BullMQ jobId only de-duplicates while the job is
 * still in Redis, so "did this side effect already happen?" is answered here, under a unique key.
 */
@Injectable()
export class JobLedger {
  constructor(private readonly dataSource: DataSource) {}

  async hasRecorded(key: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM side_effects WHERE key = $1`, [key]);
    return rows.length > 0;
  }

  /** Records the side effect; false when another run recorded it first. */
  async record(manager: EntityManager, key: string, kind: string, detail: Record<string, unknown>): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO side_effects (key, kind, detail) VALUES ($1, $2, $3::jsonb) ON CONFLICT (key) DO NOTHING RETURNING key`,
      [key, kind, JSON.stringify(detail)],
    );
    return rows.length > 0;
  }

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
