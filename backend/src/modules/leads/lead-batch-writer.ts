import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JOBS, QUEUES } from '../../shared/contracts/jobs';

export interface LeadRow {
  email: string;
  name: string | null;
  phone: string | null;
  referral: string | null;
  attribution: Record<string, string>;
}

export interface LeadWriteResult {
  id: string;
  inserted: boolean;
}

interface Pending {
  row: LeadRow;
  key: string;
  resolve: (result: LeadWriteResult) => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 200;

/**
 * Writes leads in batches: every request that arrives within one event-loop turn shares one
 * statement and one commit. Each caller still waits for its own row to be committed, so a 201
 * always means durably stored; under light load a batch is a single row and adds no delay.
 *
 * The statement upserts each lead by its normalised e-mail (first-touch attribution wins),
 * records the submission, and owes the affiliate job through the outbox for new leads only.
 */
@Injectable()
export class LeadBatchWriter {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly dataSource: DataSource) {}

  write(row: LeadRow): Promise<LeadWriteResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, key: row.email.toLowerCase(), resolve, reject });
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
      const rows: Array<{ id: string; key: string; inserted: boolean }> = await this.dataSource.query(
        `WITH input AS (
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[])
             WITH ORDINALITY AS i(email, name, phone, referral, attribution, ord)
         ), lead AS (
           INSERT INTO leads (email, email_normalized, name, phone, referral, attribution)
           SELECT email, lower(email), name, phone, referral, attribution FROM input ORDER BY ord
           ON CONFLICT (email_normalized) DO UPDATE SET
             name = COALESCE(EXCLUDED.name, leads.name),
             phone = COALESCE(EXCLUDED.phone, leads.phone),
             referral = COALESCE(leads.referral, EXCLUDED.referral),
             attribution = EXCLUDED.attribution || leads.attribution,
             submission_count = leads.submission_count + 1,
             last_submitted_at = now()
           RETURNING id, email_normalized, (xmax = 0) AS inserted
         ), submission AS (
           INSERT INTO lead_submissions (lead_id, name, phone, referral, attribution)
           SELECT lead.id, input.name, input.phone, input.referral, input.attribution
             FROM input JOIN lead ON lead.email_normalized = lower(input.email)
         ), owed AS (
           INSERT INTO outbox (queue, job_name, payload)
           SELECT $6, $7, jsonb_build_object('leadId', id) FROM lead WHERE inserted
         )
         SELECT id, email_normalized AS key, inserted FROM lead`,
        [
          batch.map((p) => p.row.email),
          batch.map((p) => p.row.name),
          batch.map((p) => p.row.phone),
          batch.map((p) => p.row.referral),
          batch.map((p) => JSON.stringify(p.row.attribution)),
          QUEUES.tracking,
          JOBS.leadAttribution,
        ],
      );
      const byKey = new Map(rows.map((r) => [r.key, r]));
      for (const pending of batch) {
        const row = byKey.get(pending.key);
        if (row) pending.resolve({ id: row.id, inserted: row.inserted });
        else pending.reject(new Error('Lead write returned no row'));
      }
    } catch (err) {
      for (const pending of batch) pending.reject(err);
    }
  }
}
