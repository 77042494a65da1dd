import { BadRequestException, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { normalizeEmail } from '@contracts/email';
import { JOBS } from '@contracts/jobs';
import { MailConfig } from '@core/config/config-sections';
import { hasAffiliateReferral, LeadRepository, type NewLead } from '@core/database/repositories/lead.repository';
import { isPoolBusy } from '@core/database/pool-admission';
import { owe, type OwedJob } from '@core/queue/owe';
import { isDatabaseUnavailable } from '../../common/database-unavailable';

export interface LeadWriteResult {
  id: string;
  inserted: boolean;
}

interface Pending {
  row: NewLead;
  key: string;
  resolve: (result: LeadWriteResult) => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 200;

/** Postgres class 22 ("data exception"): the values themselves cannot be stored. */
const isDataException = (err: unknown): boolean => /^22/.test(String((err as { code?: string | number }).code ?? ''));

const UNSTORABLE_MESSAGE = 'This submission contains characters or values that cannot be stored. Please check the fields and try again.';

/**
 * Writes leads in batches: every request that arrives within one event-loop turn shares one
 * transaction (one upsert statement, the owed jobs, one commit). Each caller still waits for its
 * own row to be committed, so a 201 always means durably stored; under light load a batch is a
 * single row and adds no delay.
 *
 * Leads are keyed by `normalizeEmail`, computed here and stored as is, and each caller's result
 * is matched by its position in the batch. Should a batch still fail, its members are written
 * one by one so that only the offending request fails.
 */
@Injectable()
export class LeadBatchWriter {
  private readonly logger = new Logger(LeadBatchWriter.name);
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly leads: LeadRepository,
    private readonly config: MailConfig,
  ) {}

  write(row: NewLead): Promise<LeadWriteResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, key: normalizeEmail(row.email), resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      // One statement cannot upsert the same row twice: a repeated e-mail waits for the next batch.
      const batch: Pending[] = [];
      const rest: Pending[] = [];
      const keys = new Set<string>();
      for (const item of this.queue) {
        if (batch.length < MAX_BATCH && !keys.has(item.key)) {
          keys.add(item.key);
          batch.push(item);
        } else {
          rest.push(item);
        }
      }
      this.queue = rest;
      void this.run(batch);
    }
  }

  private async run(batch: Pending[]): Promise<void> {
    // A stable lock order keeps concurrent batches that share e-mails from deadlocking.
    batch.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    try {
      const results = await this.dataSource.transaction((manager) => this.upsert(manager, batch));
      batch.forEach((pending, i) => pending.resolve(results[i]));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(this.explain(err));
      // A busy pool or an absent database is no member's fault: writing them one by one would
      // only keep every caller waiting for as many more refusals.
      if (isPoolBusy(err) || isDatabaseUnavailable(err)) return batch.forEach((pending) => pending.reject(err));
      this.logger.warn({ code: (err as { code?: unknown }).code, size: batch.length }, 'Lead batch failed; writing its members one by one');
      for (const pending of batch) {
        try {
          const [result] = await this.dataSource.transaction((manager) => this.upsert(manager, [pending]));
          pending.resolve(result);
        } catch (memberErr) {
          pending.reject(this.explain(memberErr));
        }
      }
    }
  }

  /**
   * Upserts the leads, records their submissions and owes the attribution job (when there is a
   * referral to attribute) and the delayed abandoned-checkout reminder of new leads, all in one
   * outbox insert (a lead submitted again owes neither: it had its reminder when it was new).
   */
  private async upsert(manager: EntityManager, batch: Pending[]): Promise<LeadWriteResult[]> {
    const rows = await this.leads.upsertSubmissions(
      manager,
      batch.map((p) => ({ ...p.row, emailNormalized: p.key })),
    );
    const results = Array.from<LeadWriteResult | undefined>({ length: batch.length });
    for (const row of rows) results[Number(row.ord) - 1] = { id: row.id, inserted: row.inserted };
    if (rows.length !== batch.length || results.some((result) => result === undefined)) {
      throw new Error(`Lead batch returned ${rows.length} rows for ${batch.length} leads`);
    }
    const written = results as LeadWriteResult[];
    const delaySeconds = this.config.ABANDONED_CHECKOUT_DELAY_S;
    await owe(
      manager,
      written.flatMap((result, i) => (result.inserted ? owedByNewLead(result.id, batch[i].row, delaySeconds) : [])),
    );
    return written;
  }

  /** Values Postgres refuses are the caller's to fix (400); anything else is ours (500). */
  private explain(err: unknown): unknown {
    return isDataException(err) ? new BadRequestException(UNSTORABLE_MESSAGE) : err;
  }
}

/** A new lead's jobs: its affiliate signup when it has a referral to attribute, and its delayed reminder. */
function owedByNewLead(leadId: string, lead: NewLead, delaySeconds: number): OwedJob[] {
  return [
    ...(hasAffiliateReferral(lead) ? [{ name: JOBS.affiliateSignup, data: { leadId } } as const] : []),
    ...(delaySeconds > 0 ? [{ name: JOBS.abandonedCheckoutEmail, data: { leadId }, delaySeconds } as const] : []),
  ];
}
