import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../backend/src/config/app-config';

export interface AffiliateSignup {
  email: string;
  /** Our lead id: FirstPromoter matches later sales to this lead through it. */
  uid: string;
  /** Visitor tracking id from the affiliate cookie or script. */
  tid?: string;
  /** A promoter's referral id taken from the landing URL. */
  refId?: string;
}

export type AffiliateResult = { kind: 'sent'; status: number } | { kind: 'not-configured' };

export class AffiliateRejectedError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`Affiliate service answered ${status}: ${body.slice(0, 300)}`);
  }
  /** 4xx other than 408/429 will not change on retry. */
  get permanent(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }
}

/** FirstPromoter-compatible tracking API (v1): POST {base}/track/signup with X-API-KEY. */
@Injectable()
export class AffiliateClient {
  constructor(private readonly config: AppConfig) {}

  async trackSignup(signup: AffiliateSignup, idempotencyKey: string): Promise<AffiliateResult> {
    const key = this.config.AFFILIATE_API_KEY;
    if (!key) return { kind: 'not-configured' };
    const form = new URLSearchParams({ email: signup.email, uid: signup.uid });
    if (signup.tid) form.set('tid', signup.tid);
    if (signup.refId) form.set('ref_id', signup.refId);
    const response = await fetch(`${this.config.AFFILIATE_API_URL.replace(/\/$/, '')}/track/signup`, {
      method: 'POST',
      headers: {
        'x-api-key': key,
        'content-type': 'application/x-www-form-urlencoded',
        'idempotency-key': idempotencyKey,
      },
      body: form,
      signal: AbortSignal.timeout(this.config.AFFILIATE_TIMEOUT_MS),
    });
    if (!response.ok) throw new AffiliateRejectedError(response.status, await response.text());
    await response.arrayBuffer();
    return { kind: 'sent', status: response.status };
  }
}
