import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Lead } from '../../../backend/src/shared/database/entities';
import type { LeadAttributionPayload } from '../../../backend/src/shared/contracts/jobs';
import { AffiliateClient, AffiliateRejectedError, AffiliateSignup } from './affiliate.client';
import { JobLedger } from './job-ledger.service';

/** FirstPromoter tracking ids are long generated ids; promoter referral ids are short codes. */
const TRACKING_ID_MIN_LENGTH = 21;

export type AttributionOutcome = 'sent' | 'already-sent' | 'skipped: not configured' | 'skipped: no referral' | 'skipped: lead not found' | `failed: ${string}`;

@Injectable()
export class LeadAttributionService {
  private readonly logger = new Logger(LeadAttributionService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly affiliate: AffiliateClient,
    private readonly ledger: JobLedger,
  ) {}

  async attribute({ leadId }: LeadAttributionPayload): Promise<AttributionOutcome> {
    const ledgerKey = `affiliate-signup:${leadId}`;
    if (await this.ledger.hasRecorded(ledgerKey)) return 'already-sent';
    const lead = await this.dataSource.getRepository(Lead).findOneBy({ id: leadId });
    if (!lead) return 'skipped: lead not found';

    const signup = this.signupFor(lead);
    if (!signup.tid && !signup.refId) return this.recordStatus(leadId, 'skipped: no referral');

    let result;
    try {
      result = await this.affiliate.trackSignup(signup, ledgerKey);
    } catch (err) {
      if (err instanceof AffiliateRejectedError && err.permanent) {
        return this.recordStatus(leadId, `failed: ${err.message}`);
      }
      throw err;
    }
    if (result.kind === 'not-configured') return this.recordStatus(leadId, 'skipped: not configured');

    await this.dataSource.transaction(async (manager) => {
      await this.ledger.record(manager, ledgerKey, 'affiliate-signup', { leadId, status: result.status });
      await manager.query(`UPDATE leads SET affiliate_status = 'sent', affiliate_recorded_at = now() WHERE id = $1`, [leadId]);
    });
    this.logger.log({ leadId, tid: Boolean(signup.tid), refId: Boolean(signup.refId) }, 'Affiliate signup tracked');
    return 'sent';
  }

  private signupFor(lead: Lead): AffiliateSignup {
    const referral = lead.referral ?? undefined;
    const cookieTid = lead.attribution?.tid;
    const referralIsTid = referral !== undefined && referral.length >= TRACKING_ID_MIN_LENGTH;
    return {
      email: lead.email,
      uid: lead.id,
      tid: cookieTid ?? (referralIsTid ? referral : undefined),
      refId: referral !== undefined && !referralIsTid ? referral : undefined,
    };
  }

  private async recordStatus<T extends AttributionOutcome>(leadId: string, status: T): Promise<T> {
    await this.dataSource.query(`UPDATE leads SET affiliate_status = $2, affiliate_recorded_at = now() WHERE id = $1`, [leadId, status]);
    this.logger.log({ leadId, status }, 'Affiliate signup not sent');
    return status;
  }
}
