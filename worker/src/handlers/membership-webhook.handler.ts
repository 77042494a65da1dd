import { Injectable, Logger } from '@nestjs/common';
import { JOBS, MembershipWebhookPayload, SIDE_EFFECTS } from '@contracts/jobs';
import { grantsAccess } from '@contracts/plans';
import { MembershipConfig } from '@core/config/config-sections';
import { MembershipRepository, type MembershipListing } from '@core/database/repositories/membership.repository';
import { ProviderCallRepository } from '@core/database/repositories/provider-call.repository';
import { MembershipNotice, MembershipWebhookClient } from '../clients/membership-webhook.client';
import { OnJob } from '../jobs/on-job.decorator';
import { ProviderCallLedger } from '../ledger/provider-call-ledger';

export type MembershipWebhookOutcome =
  | 'sent'
  | 'already sent'
  | 'skipped: not configured'
  | 'skipped: membership not found'
  | 'skipped: test order'
  | `failed: ${string}`;

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
 *
 * Test orders (the sandbox, Stripe test keys: the deciding order's `livemode` false, which every
 * notice carries) reach the members area only with MEMBERSHIP_WEBHOOK_TEST_ORDERS=true. Otherwise
 * nothing is sent about them, neither grant nor end (an end of access never granted would be
 * noise), with one exception: when the setting was on before, the members area may have been told
 * of a grant, so an end is still sent if an earlier change of that membership is in the ledger.
 * Turning the setting off thus never leaves test access open; turning it on tells test
 * memberships at their next access change. The rule is decided here, at send time, like every
 * other third party's test-order rule (order-paid.handler.ts): the lifecycle owes the same jobs
 * whatever the setting, and the admin's members list still shows test memberships.
 */
@Injectable()
export class MembershipWebhookHandler {
  private readonly logger = new Logger(MembershipWebhookHandler.name);

  constructor(
    private readonly memberships: MembershipRepository,
    private readonly ledger: ProviderCallLedger,
    private readonly client: MembershipWebhookClient,
    private readonly config: MembershipConfig,
    private readonly sideEffects: ProviderCallRepository,
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
    if (!(await this.mayTell(membership, change))) return 'skipped: test order';
    const notice: MembershipNotice = {
      type: grantsAccess(membership.status) ? 'membership.access_granted' : 'membership.access_ended',
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
        livemode: membership.livemode === true,
      },
    };
    const effect = await this.ledger.run(SIDE_EFFECTS.membershipWebhook, `${membershipId}:${change}`, (key) =>
      this.client.send(notice, key),
    );
    if (effect.status !== 'done') return `failed: ${String(effect.detail.reason ?? 'rejected')}`;
    return effect.replayed ? 'already sent' : 'sent';
  }

  /** Whether the members area may hear of this membership now (see the class's comment on test orders). */
  private async mayTell(membership: MembershipListing, change: number): Promise<boolean> {
    if (membership.livemode === true || this.config.MEMBERSHIP_WEBHOOK_TEST_ORDERS) return true;
    if (grantsAccess(membership.status)) return false;
    // Up to this change itself: a delivery begun while the setting was on is finished under its key.
    const keys = Array.from({ length: change }, (_, i) => `${SIDE_EFFECTS.membershipWebhook}:${membership.id}:${i + 1}`);
    return (await this.sideEffects.findByKeys(keys)).length > 0;
  }
}
