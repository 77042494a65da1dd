import { Injectable, Logger } from '@nestjs/common';
import { JOBS, MembershipWebhookPayload, SIDE_EFFECTS } from '@contracts/jobs';
import { MembershipRepository } from '@core/database/repositories/membership.repository';
import { MembershipNotice, MembershipWebhookClient } from '../clients/membership-webhook.client';
import { OnJob } from '../jobs/on-job.decorator';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';

export type MembershipWebhookOutcome =
  'sent' | 'already sent' | 'skipped: not configured' | 'skipped: membership not found' | `failed: ${string}`;

/**
 * Tells the members area that a buyer's access was granted or ended: one signed POST per access
 * change, claimed in the side-effect ledger under `membership-webhook:<membership id>:<change>`
 * before the call and sent with that key as its `webhook-id`, so a retried job never tells it
 * twice. A members area that is down is retried with the job's backoff for the retry horizon, then
 * shown to operators among the exhausted jobs.
 *
 * The grant and the end of one membership are separate jobs, each retried on its own, so they can
 * be delivered in either order. Each notice therefore says what the membership is when it is sent
 * (read now, not the change that owed it) with the membership's access-change count as its
 * sequence: a grant delivered after the end carries 'ended' and the end's sequence, and a receiver
 * that applies only a greater sequence keeps the access closed.
 */
@Injectable()
export class MembershipWebhookHandler {
  private readonly logger = new Logger(MembershipWebhookHandler.name);

  constructor(
    private readonly memberships: MembershipRepository,
    private readonly ledger: ProviderCallLedger,
    private readonly client: MembershipWebhookClient,
  ) {}

  @OnJob(JOBS.membershipWebhook)
  async notify({ membershipId, change, event }: MembershipWebhookPayload): Promise<MembershipWebhookOutcome> {
    const outcome = await this.send(membershipId, change);
    this.logger.log({ membershipId, change, event, outcome }, 'Membership webhook');
    return outcome;
  }

  private async send(membershipId: string, change: number): Promise<MembershipWebhookOutcome> {
    if (!this.client.configured) return 'skipped: not configured';
    const membership = await this.memberships.findListing(membershipId);
    if (!membership) return 'skipped: membership not found';
    const notice: MembershipNotice = {
      type: membership.status === 'ended' ? 'membership.access_ended' : 'membership.access_granted',
      timestamp: membership.updated_at.toISOString(),
      data: {
        membership_id: membershipId,
        sequence: membership.access_changes,
        status: membership.status,
        email: membership.email ?? membership.email_normalized,
        name: membership.name,
        product: membership.product,
        plan: membership.plan_id,
        order_id: membership.order_id,
      },
    };
    const effect = await this.ledger.run(SIDE_EFFECTS.membershipWebhook, `${membershipId}:${change}`, (key) =>
      this.client.send(notice, key),
    );
    if (effect.status !== 'done') return `failed: ${String(effect.detail.reason ?? 'rejected')}`;
    return effect.replayed ? 'already sent' : 'sent';
  }
}
