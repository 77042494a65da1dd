import { Injectable, Logger } from '@nestjs/common';
import { JOBS, AffiliateSignupPayload, SIDE_EFFECTS } from '@contracts/jobs';
import { hasAffiliateReferral, LeadRepository, NO_REFERRAL, type LeadRow } from '@core/database/repositories/lead.repository';
import { BATCH_MAX, Coalescer } from '../jobs/coalescer';
import { OnJob } from '../jobs/on-job.decorator';
import { AffiliateClient, AffiliateSignup } from '../clients/affiliate.client';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';

type AffiliateLead = Pick<LeadRow, 'id' | 'email' | 'referral' | 'attribution'>;

/** FirstPromoter tracking ids are long generated ids; promoter referral ids are short codes. */
const TRACKING_ID_MIN_LENGTH = 21;

export type AttributionOutcome =
  'sent' | 'already-sent' | 'skipped: not configured' | typeof NO_REFERRAL | 'skipped: lead not found' | `failed: ${string}`;

@Injectable()
export class AffiliateSignupHandler {
  private readonly logger = new Logger(AffiliateSignupHandler.name);
  /** A backlog runs many of these jobs at once: they share the lead read and the status write. */
  private readonly leads = new Coalescer<string, AffiliateLead | undefined>(
    async (ids) => {
      const rows = await this.leadRows.findForAffiliate(ids);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id));
    },
    { max: BATCH_MAX },
  );
  private readonly statuses = new Coalescer<{ leadId: string; status: AttributionOutcome }, void>(
    async (updates) => {
      await this.leadRows.recordAffiliateStatuses(updates);
      return updates.map(() => undefined);
    },
    { max: BATCH_MAX, keyOf: (update) => update.leadId },
  );

  constructor(
    private readonly leadRows: LeadRepository,
    private readonly affiliate: AffiliateClient,
    private readonly ledger: ProviderCallLedger,
  ) {}

  /** Tells the affiliate service about a referred lead, once, through the side-effect ledger. */
  @OnJob(JOBS.affiliateSignup)
  async attribute({ leadId }: AffiliateSignupPayload): Promise<AttributionOutcome> {
    const lead = await this.leads.run(leadId);
    if (!lead) return 'skipped: lead not found';
    // New leads without one are recorded so when stored, and owe no job; an older job may still come.
    if (!hasAffiliateReferral(lead)) return this.recordStatus(leadId, NO_REFERRAL);
    const signup = this.signupFor(lead);
    // Not a success and not a claim: nothing was sent, and a later run with a key may send it.
    if (!this.affiliate.configured) return this.recordStatus(leadId, 'skipped: not configured');

    const effect = await this.ledger.run(SIDE_EFFECTS.affiliateSignup, leadId, (key) => this.affiliate.trackSignup(signup, key));
    // Written from the ledger on every run, so a crash between the two is repaired by the retry.
    const status: AttributionOutcome = effect.status === 'done' ? 'sent' : `failed: ${String(effect.detail.reason ?? 'rejected')}`;
    await this.recordStatus(leadId, status);
    this.logger.log(
      { leadId, tid: Boolean(signup.tid), refId: Boolean(signup.refId), outcome: effect.detail.outcome, replayed: effect.replayed },
      'Affiliate signup recorded',
    );
    return effect.replayed && effect.status === 'done' ? 'already-sent' : status;
  }

  private signupFor(lead: AffiliateLead): AffiliateSignup {
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
    await this.statuses.run({ leadId, status });
    return status;
  }
}
