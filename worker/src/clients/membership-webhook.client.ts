import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@core/config/app-config';
import type { ProviderAnswer } from '../ledger/provider-call-ledger';
import { isRetryableStatus, postOrUnavailable, NotConfiguredError, ProviderUnavailableError } from './provider-call';

const SERVICE = 'Membership webhook';
/** A members area that has not answered in this long is retried later. */
const TIMEOUT_MS = 10_000;
export const MEMBERSHIP_SIGNATURE_HEADER = 'x-clear-signature';

/** What the members area is told: who, which product, and whether they may enter now. */
export interface MembershipNotice {
  /** `<membership id>:<change>`: the same change always has the same id, so the receiver can drop a repeat. */
  id: string;
  type: 'membership.access_granted' | 'membership.access_ended';
  created: number;
  data: {
    membership_id: string;
    email: string;
    name: string | null;
    product: string;
    status: string;
    plan: string | null;
    order_id: string | null;
  };
}

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, as Stripe signs its webhooks: the
 * receiver recomputes it over the exact bytes and refuses an old timestamp.
 */
export function signMembershipNotice(body: string, secret: string, at: number): string {
  return `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`;
}

/** POSTs the signed notice to MEMBERSHIP_WEBHOOK_URL; a 2xx is done, a 4xx other than 408/429 rejected, anything else retried. */
@Injectable()
export class MembershipWebhookClient {
  constructor(private readonly config: AppConfig) {}

  get configured(): boolean {
    return Boolean(this.config.MEMBERSHIP_WEBHOOK_URL && this.config.MEMBERSHIP_WEBHOOK_SECRET);
  }

  async send(notice: MembershipNotice, idempotencyKey: string): Promise<ProviderAnswer> {
    const url = this.config.MEMBERSHIP_WEBHOOK_URL;
    const secret = this.config.MEMBERSHIP_WEBHOOK_SECRET;
    if (!url || !secret) throw new NotConfiguredError(SERVICE);
    const body = JSON.stringify(notice);
    const response = await postOrUnavailable(SERVICE, url, {
      headers: {
        'content-type': 'application/json',
        [MEMBERSHIP_SIGNATURE_HEADER]: signMembershipNotice(body, secret, Math.floor(Date.now() / 1000)),
        'idempotency-key': idempotencyKey,
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
