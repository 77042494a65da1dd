import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Lead } from '../../../backend/src/shared/database/entities';
import type { LeadAttributionPayload } from '../../../backend/src/shared/contracts/jobs';
import { AffiliateClient, AffiliateRejectedError, AffiliateSignup } from './affiliate.client';

type LeadRow = Pick<Lead, 'id' | 'email' | 'referral' | 'attribution'>;

/** FirstPromoter tracking ids are long generated ids; promoter referral ids are short codes. */
const TRACKING_ID_MIN_LENGTH = 21;

export type AttributionOutcome = 'sent' | 'already-sent' | 'skipped: not configured' | 'skipped: no referral' | 'skipped: lead not found' | `failed: ${string}`;

@Injectable()
export class LeadAttributionService {
  private readonly logger = new Logger(LeadAttributionService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly affiliate: AffiliateClient,
  ) {}

  async attribute({ leadId }: LeadAttributionPayload): Promise<AttributionOutcome> {
    const ledgerKey = `affiliate-signup:${leadId}`;
    // One round trip: the lead and whether its signup was already recorded.
    const [row]: Array<LeadRow & { already: boolean }> = await this.dataSource.query(
      `SELECT l.id, l.email, l.referral, l.attribution, (s.key IS NOT NULL) AS already
         FROM leads l LEFT JOIN side_effects s ON s.key = $2
        WHERE l.id = $1`,
      [leadId, ledgerKey],
    );
    if (!row) return 'skipped: lead not found';
    if (row.already) return 'already-sent';
    const lead = row;

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

    // The ledger row and the lead's status in one statement: both or neither.
    await this.dataSource.query(
      `WITH recorded AS (
         INSERT INTO side_effects (key, kind, detail) VALUES ($1, 'affiliate-signup', $2::jsonb)
         ON CONFLICT (key) DO NOTHING RETURNING key
       )
       UPDATE leads SET affiliate_status = 'sent', affiliate_recorded_at = now()
        WHERE id = $3 AND EXISTS (SELECT 1 FROM recorded)`,
      [ledgerKey, JSON.stringify({ leadId, status: result.status }), leadId],
    );
    this.logger.log({ leadId, tid: Boolean(signup.tid), refId: Boolean(signup.refId) }, 'Affiliate signup tracked');
    return 'sent';
  }

  private signupFor(lead: LeadRow): AffiliateSignup {
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
