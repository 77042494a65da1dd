import { Injectable, Optional } from '@nestjs/common';
import type { SideEffectKind } from '@contracts/jobs';
import {
  ProviderCallRepository,
  type SideEffectClaim,
  type SideEffectDetail,
  type SideEffectStatus,
} from '@core/database/repositories/provider-call.repository';
import { BATCH_MAX, Coalescer } from '../jobs/coalescer';
import { redact } from '../jobs/redact';
import { WorkerMetrics } from '../metrics/worker-metrics';

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
  detail: SideEffectDetail;
  /** How many times the provider was called for this key, this call included. */
  attempts: number;
  /** True when an earlier run had already finished it and no call was made now. */
  replayed: boolean;
}

type Claim = Omit<SideEffectClaim, 'key'>;
type Outcome = { key: string; status: Exclude<SideEffectStatus, 'claimed'>; detail: SideEffectDetail };

/**
 * The one way to perform an external side effect at most once in effect. The key is claimed in
 * Postgres before the call; every attempt sends the key as the provider's idempotency key; the
 * answer is recorded after. If the process dies between the provider's answer and the record,
 * the row stays 'claimed' and the next run calls again with the same key, which the provider
 * collapses into the first call. A finished row is never called again.
 */
@Injectable()
export class ProviderCallLedger {
  /**
   * Concurrent jobs share the claim and the record statements (one round trip and one commit
   * for many keys); each caller still waits for its own claim to commit before calling out.
   */
  private readonly claims = new Coalescer<{ key: string; kind: SideEffectKind }, Claim>((inputs) => this.claimAll(inputs), {
    max: BATCH_MAX,
    keyOf: (input) => input.key,
  });
  private readonly records = new Coalescer<Outcome, void>((outcomes) => this.recordAll(outcomes), {
    max: BATCH_MAX,
    keyOf: (outcome) => outcome.key,
    // No linger: between the provider's answer and its record, a crash means calling again.
  });

  constructor(
    private readonly sideEffects: ProviderCallRepository,
    @Optional() private readonly metrics?: WorkerMetrics,
  ) {}

  async run(kind: SideEffectKind, subjectId: string, call: (idempotencyKey: string) => Promise<ProviderAnswer>): Promise<SideEffectResult> {
    const key = `${kind}:${subjectId}`;
    const claim = await this.claims.run({ key, kind });
    if (claim.status !== 'claimed') {
      this.metrics?.replayed(kind);
      return { key, status: claim.status, detail: claim.detail, attempts: claim.attempts, replayed: true };
    }

    let answer: ProviderAnswer;
    const started = performance.now();
    try {
      answer = await call(key);
    } catch (err) {
      this.metrics?.providerCall(kind, 'error', (performance.now() - started) / 1000);
      await this.noteError(key, (err as Error).message ?? String(err)).catch(() => undefined);
      throw err;
    }
    this.metrics?.providerCall(kind, answer.outcome, (performance.now() - started) / 1000);
    const status = answer.outcome === 'rejected' ? 'failed' : 'done';
    const detail: SideEffectDetail = {
      ...answer.detail,
      outcome: answer.outcome,
      ...(answer.outcome === 'rejected' ? { reason: redact(answer.reason) } : {}),
    };
    await this.record(key, status, detail);
    return { key, status, detail, attempts: claim.attempts, replayed: false };
  }

  /** Records the provider's answer; public so tests can make it fail as a crash would. */
  record(key: string, status: Exclude<SideEffectStatus, 'claimed'>, detail: SideEffectDetail): Promise<void> {
    return this.records.run({ key, status, detail });
  }

  /**
   * Creates each claim, or counts another attempt on an unfinished one. A finished row is left
   * as it is and returned, so the caller short-circuits.
   */
  private async claimAll(inputs: Array<{ key: string; kind: SideEffectKind }>): Promise<Claim[]> {
    const claimed = await this.sideEffects.claim(inputs);
    const byKey = new Map(claimed.map((row) => [row.key, row]));
    const finishedKeys = inputs.map((i) => i.key).filter((key) => !byKey.has(key));
    if (finishedKeys.length > 0) {
      // A statement of its own: it must see rows finished by transactions that committed during the insert.
      const finished = await this.sideEffects.findByKeys(finishedKeys);
      for (const row of finished) byKey.set(row.key, row);
    }
    return inputs.map(({ key }) => {
      const row = byKey.get(key);
      if (!row) throw new Error(`Side effect ${key} was neither claimed nor found`);
      return { status: row.status, detail: row.detail, attempts: row.attempts };
    });
  }

  private async recordAll(outcomes: Outcome[]): Promise<void[]> {
    await this.sideEffects.finish(outcomes);
    return outcomes.map(() => undefined);
  }

  private async noteError(key: string, message: string): Promise<void> {
    await this.sideEffects.noteError(key, redact(message));
  }
}
