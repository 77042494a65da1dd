import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { MembershipStatus } from '@contracts/plans';
import { MembershipConfig } from '@core/config/config-sections';
import type { ProviderAnswer } from '../ledger/provider-call-ledger';
import { isRetryableStatus, postOrUnavailable, NotConfiguredError, ProviderUnavailableError } from './provider-call';

const SERVICE = 'Membership webhook';
/** A members area that has not answered in this long is retried later. */
const TIMEOUT_MS = 10_000;

/**
 * What the members area is told: the membership as it is when the notice is sent, whichever
 * access change owed it. Notices can arrive out of order (each change is its own job, retried on
 * its own), so the receiver applies one only if its `sequence` is greater than the last it applied
 * for that membership.
 */
export interface MembershipNotice {
  /** From `status` at send time: access_granted while the buyer may enter, access_ended once not. */
  type: 'membership.access_granted' | 'membership.access_ended';
  /** ISO time the membership last changed (memberships.updated_at): what `data` describes. */
  timestamp: string;
  data: {
    membership_id: string;
    /** memberships.access_changes when sent: every access change increments it, so a later state never has a smaller one. */
    sequence: number;
    status: MembershipStatus;
    email: string;
    name: string | null;
    product: string;
    plan: string | null;
    order_id: string | null;
    /** False for a test order (the sandbox, Stripe test keys): no real money was paid. */
    livemode: boolean;
  };
}

/** The Standard Webhooks headers of one attempt (https://www.standardwebhooks.com/). */
interface StandardWebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs as Standard Webhooks does: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed
 * with the bytes that the secret (`whsec_<base64>`, its shape checked at start-up) encodes. The id
 * and the attempt's time are signed with the exact body, so the receiver can refuse a replayed or
 * altered delivery.
 */
function standardWebhookHeaders(id: string, body: string, secret: string, at: number): StandardWebhookHeaders {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${at}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(at), 'webhook-signature': `v1,${signature}` };
}

/** POSTs the signed notice to MEMBERSHIP_WEBHOOK_URL; a 2xx is done, a 4xx other than 408/429 rejected, anything else retried. */
@Injectable()
export class MembershipWebhookClient {
  constructor(private readonly config: MembershipConfig) {}

  get configured(): boolean {
    return Boolean(this.config.MEMBERSHIP_WEBHOOK_URL && this.config.MEMBERSHIP_WEBHOOK_SECRET);
  }

  /** `webhookId`: the same for every attempt of one access change, so the receiver can drop a repeat. */
  async send(notice: MembershipNotice, webhookId: string): Promise<ProviderAnswer> {
    const url = this.config.MEMBERSHIP_WEBHOOK_URL;
    const secret = this.config.MEMBERSHIP_WEBHOOK_SECRET;
    if (!url || !secret) throw new NotConfiguredError(SERVICE);
    const body = JSON.stringify(notice);
    const response = await postOrUnavailable(SERVICE, url, {
      headers: {
        'content-type': 'application/json',
        // Signed at each attempt: the receiver refuses a timestamp more than minutes away from its clock.
        ...standardWebhookHeaders(webhookId, body, secret, Math.floor(Date.now() / 1000)),
      },
      body,
      timeoutMs: TIMEOUT_MS,
    });
    await response.discard();
    if (response.ok) return { outcome: 'done', detail: { status: response.status } };
    if (isRetryableStatus(response.status)) throw new ProviderUnavailableError(SERVICE, `answered ${response.status}`);
    return { outcome: 'rejected', reason: `answered ${response.status}`, detail: { status: response.status } };
  }
}
