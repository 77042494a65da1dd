import { Injectable } from '@nestjs/common';
import type { SandboxDisputeEvidence, SandboxDisputeResponse } from '@contracts/payments';
import { PaymentNotFoundError, PaymentRefusedError } from '../../payment-gateway';
import { disputeObject, EVIDENCE_CLOSES_AS } from './sandbox-disputes';
import { stripeEvent } from './sandbox-events';
import { SandboxStore } from './sandbox-store';

const DISPUTE_ID = /^dp_[0-9A-Za-z]{24}$/;

/**
 * The bank's decision on a sandbox dispute (a payment of test card 4000 0000 0000 0259), as
 * Stripe's test mode decides one on `disputes.update(id, { evidence: { uncategorized_text } })`:
 * `winning_evidence` closes it won, `losing_evidence` lost, with Stripe's
 * `charge.dispute.updated` (the evidence submitted, under review) and `charge.dispute.closed`.
 * The worker applies them through the webhook path like Stripe's: a lost dispute is recorded as a
 * refund that ends access.
 */
@Injectable()
export class SandboxDisputesService {
  constructor(private readonly store: SandboxStore) {}

  /** Closes the dispute; the same evidence again answers the same outcome, other evidence for a closed dispute is refused. */
  async submitEvidence(disputeId: string, evidence: SandboxDisputeEvidence): Promise<SandboxDisputeResponse> {
    const status = EVIDENCE_CLOSES_AS[evidence];
    return this.store.transaction(async (manager) => {
      const dispute = DISPUTE_ID.test(disputeId) ? await this.store.find(manager, 'dispute', disputeId, true) : null;
      if (!dispute) throw new PaymentNotFoundError('No dispute has this id.');
      if (dispute.status === status) return { id: dispute.id, status };
      if (dispute.status !== 'needs_response') throw new PaymentRefusedError(`This dispute is already closed as ${dispute.status}.`);
      await this.store.update(manager, dispute, { ...dispute, status }, (closed) => [
        stripeEvent('charge.dispute.updated', disputeObject({ ...closed, status: 'under_review' }, evidence)),
        stripeEvent('charge.dispute.closed', disputeObject(closed, evidence)),
      ]);
      return { id: dispute.id, status };
    });
  }
}
