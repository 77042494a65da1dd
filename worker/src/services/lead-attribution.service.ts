import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JOBS, LeadAttributionPayload, SIDE_EFFECTS } from '@contracts/jobs';
import type { Lead } from '../../../backend/src/shared/database/entities';
import { OnJob } from '../jobs/on-job.decorator';
import { AffiliateClient, AffiliateSignup } from './affiliate.client';
import { SideEffectLedger } from './side-effect-ledger.service';

type LeadRow = Pick<Lead, 'id' | 'email' | 'referral' | 'attribution'>;

/** FirstPromoter tracking ids are long generated ids; promoter referral ids are short codes. */
const TRACKING_ID_MIN_LENGTH = 21;

export type AttributionOutcome =
  | 'sent'
  | 'already-sent'
  | 'skipped: not configured'
  | 'skipped: no referral'
  | 'skipped: lead not found'
  | `failed: ${string}`;

@Injectable()
export class LeadAttributionService {
  private readonly logger = new Logger(LeadAttributionService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly affiliate: AffiliateClient,
    private readonly ledger: SideEffectLedger,
  ) {}

  /** Tells the affiliate service about a referred lead, once, through the side-effect ledger. */
  @OnJob(JOBS.leadAttribution)
  async attribute({ leadId }: LeadAttributionPayload): Promise<AttributionOutcome> {
    const [lead]: LeadRow[] = await this.dataSource.query(`SELECT id, email, referral, attribution FROM leads WHERE id = $1`, [leadId]);
    if (!lead) return 'skipped: lead not found';
    const signup = this.signupFor(lead);
    if (!signup.tid && !signup.refId) return this.recordStatus(leadId, 'skipped: no referral');
    // Not a success and not a claim: nothing was sent, and a later run with a key may send it.
    if (!this.affiliate.configured) return this.recordStatus(leadId, 'skipped: not configured');

    const effect = await this.ledger.run(SIDE_EFFECTS.affiliateSignup, leadId, (key) => this.affiliate.trackSignup(signup, key));
    // Written from the ledger on every run, so a crash between the two is repaired by the retry.
    const status: AttributionOutcome = effect.status === 'done' ? 'sent' : `failed: ${String(effect.detail.reason ?? 'rejected')}`;
    await this.recordStatus(leadId, status);
    this.logger.log({ leadId, tid: Boolean(signup.tid), refId: Boolean(signup.refId), outcome: effect.detail.outcome, replayed: effect.replayed }, 'Affiliate signup recorded');
    return effect.replayed && effect.status === 'done' ? 'already-sent' : status;
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
    return status;
  }
}
