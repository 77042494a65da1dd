import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CreateLeadResponse } from '../../shared/contracts/api-types';
import { JOBS, QUEUES } from '../../shared/contracts/jobs';
import { OutboxRelay } from '../../shared/queue/outbox-relay.service';
import { CreateLeadDto } from './dto/create-lead.dto';

const blankToNull = (value: string | undefined): string | null => (value?.trim() ? value.trim() : null);

@Injectable()
export class LeadsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly relay: OutboxRelay,
  ) {}

  /**
   * One statement, so one round trip and one implicit transaction: upsert the lead by its
   * normalised e-mail, record this submission, and (only for a new lead) owe the affiliate
   * signup job through the outbox. First-touch attribution wins over later visits.
   */
  async create(dto: CreateLeadDto, attribution: Record<string, string>): Promise<CreateLeadResponse> {
    const email = dto.email.trim();
    const rows: Array<{ id: string; inserted: boolean }> = await this.dataSource.query(
      `WITH lead AS (
         INSERT INTO leads (email, email_normalized, name, phone, referral, attribution)
         VALUES ($1, lower($1), $2, $3, $4, $5::jsonb)
         ON CONFLICT (email_normalized) DO UPDATE SET
           name = COALESCE(EXCLUDED.name, leads.name),
           phone = COALESCE(EXCLUDED.phone, leads.phone),
           referral = COALESCE(leads.referral, EXCLUDED.referral),
           attribution = EXCLUDED.attribution || leads.attribution,
           submission_count = leads.submission_count + 1,
           last_submitted_at = now()
         RETURNING id, (xmax = 0) AS inserted
       ), submission AS (
         INSERT INTO lead_submissions (lead_id, name, phone, referral, attribution)
         SELECT id, $2, $3, $4, $5::jsonb FROM lead
       ), owed AS (
         INSERT INTO outbox (queue, job_name, payload)
         SELECT $6, $7, jsonb_build_object('leadId', id) FROM lead WHERE inserted
       )
       SELECT id, inserted FROM lead`,
      [
        email,
        blankToNull(dto.name),
        blankToNull(dto.phone),
        blankToNull(dto.referral),
        JSON.stringify(attribution),
        QUEUES.tracking,
        JOBS.leadAttribution,
      ],
    );
    const [{ id, inserted }] = rows;
    if (inserted) this.relay.nudge();
    return { id, existing: !inserted };
  }
}
