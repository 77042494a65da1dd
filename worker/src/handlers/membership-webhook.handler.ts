import { Injectable, Logger } from '@nestjs/common';
import { JOBS, MembershipWebhookPayload, SIDE_EFFECTS } from '@contracts/jobs';
import { MembershipRepository } from '@core/database/repositories/membership.repository';
import { MembershipWebhookClient } from '../clients/membership-webhook.client';
import { OnJob } from '../jobs/on-job.decorator';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';

export type MembershipWebhookOutcome =
  'sent' | 'already sent' | 'skipped: not configured' | 'skipped: membership not found' | `failed: ${string}`;

/**
 * Tells the members area that a buyer's access was granted or ended: one signed POST per access
 * change, claimed in the side-effect ledger under `membership-webhook:<membership id>:<change>`
 * before the call and sent with that key, so a retried job never tells it twice. A members area
 * that is down is retried with the job's backoff for the retry horizon, then shown to operators
 * among the exhausted jobs.
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
    const outcome = await this.send(membershipId, change, event);
    this.logger.log({ membershipId, change, event, outcome }, 'Membership webhook');
    return outcome;
  }

  private async send(membershipId: string, change: number, event: MembershipWebhookPayload['event']): Promise<MembershipWebhookOutcome> {
    if (!this.client.configured) return 'skipped: not configured';
    const membership = await this.memberships.findListing(membershipId);
    if (!membership) return 'skipped: membership not found';
    const effect = await this.ledger.run(SIDE_EFFECTS.membershipWebhook, `${membershipId}:${change}`, (key) =>
      this.client.send(
        {
          id: `${membershipId}:${change}`,
          type: event,
          created: Math.floor(Date.now() / 1000),
          data: {
            membership_id: membershipId,
            email: membership.email ?? membership.email_normalized,
            name: membership.name,
            product: membership.product,
            // What the change was, even if a later one has happened since (that one is sent too).
            status: event === 'membership.access_ended' ? 'ended' : membership.status === 'ended' ? 'active' : membership.status,
            plan: membership.plan_id,
            order_id: membership.order_id,
          },
        },
        key,
      ),
    );
    if (effect.status !== 'done') return `failed: ${String(effect.detail.reason ?? 'rejected')}`;
    return effect.replayed ? 'already sent' : 'sent';
  }
}
