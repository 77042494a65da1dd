import { Injectable } from '@nestjs/common';
import { OutboxRepository } from '@core/database/repositories/outbox.repository';
import { BATCH_MAX, BOOKKEEPING_LINGER_MS, Coalescer } from '../jobs/coalescer';

/**
 * Stamps the outbox row behind a job: done, failed for good, or the last error of a retry. The
 * side effects themselves are recorded by each service in `side_effects` under a unique key.
 * Every job ends with a "done" stamp, so concurrent jobs share that statement (and its commit).
 */
@Injectable()
export class OutboxOutcomeRecorder {
  private readonly completions = new Coalescer<string, void>(
    async (ids) => {
      await this.outbox.markCompleted(ids);
      return ids.map(() => undefined);
    },
    // A job's slot waits for its stamp: a few ms more per job under load, for far fewer commits.
    { max: BATCH_MAX, lingerMs: BOOKKEEPING_LINGER_MS },
  );

  constructor(private readonly outbox: OutboxRepository) {}

  /** Resolves once the stamp is committed. */
  markCompleted(outboxId: string): Promise<void> {
    return this.completions.run(outboxId);
  }

  async markFailed(outboxId: string, error: string): Promise<void> {
    await this.outbox.markFailed(outboxId, error.slice(0, 2000));
  }

  async noteError(outboxId: string, error: string): Promise<void> {
    await this.outbox.noteError(outboxId, error.slice(0, 2000));
  }
}
