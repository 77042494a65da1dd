import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SideEffectKind } from '@contracts/jobs';
import type { SideEffectStatus } from '../../../backend/src/shared/database/entities/side-effect.entity';
import { redact } from '../jobs/redact';

type Detail = Record<string, string | number | boolean | null>;

/**
 * What a provider call resolves with. A provider's "already exists" / "duplicate key" answer is
 * `duplicate`: the effect happened (on an earlier attempt), so it is recorded as done. A refusal
 * that will not change on retry is `rejected`. Anything that may succeed later is thrown.
 * Detail holds provider ids and status codes only: it is stored, and personal data is not.
 */
export type ProviderAnswer =
  | { outcome: 'done'; detail?: Detail }
  | { outcome: 'duplicate'; detail?: Detail }
  | { outcome: 'rejected'; reason: string; detail?: Detail };

export interface SideEffectResult {
  key: string;
  status: Exclude<SideEffectStatus, 'claimed'>;
  detail: Record<string, unknown>;
  /** How many times the provider was called for this key, this call included. */
  attempts: number;
  /** True when an earlier run had already finished it and no call was made now. */
  replayed: boolean;
}

/**
 * The one way to perform an external side effect at most once in effect. The key is claimed in
 * Postgres before the call; every attempt sends the key as the provider's idempotency key; the
 * answer is recorded after. If the process dies between the provider's answer and the record,
 * the row stays 'claimed' and the next run calls again with the same key, which the provider
 * collapses into the first call. A finished row is never called again.
 */
@Injectable()
export class SideEffectLedger {
  constructor(private readonly dataSource: DataSource) {}

  async run(kind: SideEffectKind, subjectId: string, call: (idempotencyKey: string) => Promise<ProviderAnswer>): Promise<SideEffectResult> {
    const key = `${kind}:${subjectId}`;
    const claim = await this.claim(key, kind);
    if (claim.status !== 'claimed') return { key, status: claim.status, detail: claim.detail, attempts: claim.attempts, replayed: true };

    let answer: ProviderAnswer;
    try {
      answer = await call(key);
    } catch (err) {
      await this.noteError(key, (err as Error).message ?? String(err)).catch(() => undefined);
      throw err;
    }
    const status = answer.outcome === 'rejected' ? 'failed' : 'done';
    const detail: Record<string, unknown> = { ...answer.detail, outcome: answer.outcome, ...(answer.outcome === 'rejected' ? { reason: redact(answer.reason) } : {}) };
    await this.record(key, status, detail);
    return { key, status, detail, attempts: claim.attempts, replayed: false };
  }

  /**
   * Creates the claim, or counts another attempt on an unfinished one. A finished row is left as
   * it is and returned, so the caller short-circuits.
   */
  private async claim(key: string, kind: SideEffectKind): Promise<{ status: SideEffectStatus; detail: Record<string, unknown>; attempts: number }> {
    const [claimed] = await this.dataSource.query(
      `INSERT INTO side_effects (key, kind, status, attempts) VALUES ($1, $2, 'claimed', 1)
       ON CONFLICT (key) DO UPDATE SET attempts = side_effects.attempts + 1, last_attempt_at = now()
        WHERE side_effects.status = 'claimed'
       RETURNING status, detail, attempts`,
      [key, kind],
    );
    if (claimed) return claimed;
    const [finished] = await this.dataSource.query(`SELECT status, detail, attempts FROM side_effects WHERE key = $1`, [key]);
    return finished;
  }

  /** Records the provider's answer; public so tests can make it fail as a crash would. */
  async record(key: string, status: Exclude<SideEffectStatus, 'claimed'>, detail: Record<string, unknown>): Promise<void> {
    await this.dataSource.query(
      `UPDATE side_effects SET status = $2, detail = $3::jsonb, finished_at = now(), last_error = NULL WHERE key = $1 AND status = 'claimed'`,
      [key, status, JSON.stringify(detail)],
    );
  }

  private async noteError(key: string, message: string): Promise<void> {
    await this.dataSource.query(`UPDATE side_effects SET last_error = $2 WHERE key = $1 AND status = 'claimed'`, [key, redact(message)]);
  }
}
