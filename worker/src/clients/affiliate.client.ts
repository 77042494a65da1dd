import { Injectable } from '@nestjs/common';
import { AffiliateConfig } from '@core/config/config-sections';
import type { ProviderAnswer } from '../ledger/provider-call-ledger';
import { postOrUnavailable, ProviderUnavailableError } from './provider-call';

const SERVICE = 'Affiliate service';

export interface AffiliateSignup {
  email: string;
  /** Our lead id: FirstPromoter matches later sales to this lead through it. */
  uid: string;
  /** Visitor tracking id from the affiliate cookie or script. */
  tid?: string;
  /** A promoter's referral id taken from the landing URL. */
  refId?: string;
}

export interface AffiliateSale {
  email: string;
  /** The buyer's lead id when known, so the sale joins the tracked signup. */
  uid?: string;
  amountCents: number;
  /** The payment's provider id: FirstPromoter tracks one sale per event_id. */
  eventId: string;
  /** Our plan id, for plan-level commission rules. */
  plan: string;
  tid?: string;
  refId?: string;
}

/** A refund of a tracked sale: FirstPromoter reverses the commission of that sale by its event id. */
export interface AffiliateRefund {
  email: string;
  uid?: string;
  /** Cents refunded. */
  amountCents: number;
  /** The refund's own id: FirstPromoter tracks one refund per event_id. */
  eventId: string;
  /** The refunded sale's event_id (the payment's provider id, as trackSale sent it). */
  saleEventId: string;
}

/**
 * The service did not answer in a way that settles the call; retrying may help. The message
 * carries the status only: response bodies can echo the e-mail address we sent.
 */
export class AffiliateUnavailableError extends ProviderUnavailableError {
  constructor(readonly status: number) {
    super(SERVICE, `answered ${status}`);
  }
}

const DUPLICATE_BODY = /already (exists|tracked|been taken)|duplicate/i;

/** FirstPromoter-compatible tracking API (v1): POST {base}/track/signup, /track/sale and /track/refund with X-API-KEY. */
@Injectable()
export class AffiliateClient {
  constructor(private readonly config: AffiliateConfig) {}

  get configured(): boolean {
    return Boolean(this.config.AFFILIATE_API_KEY);
  }

  async trackSignup(signup: AffiliateSignup, idempotencyKey: string): Promise<ProviderAnswer> {
    const form = new URLSearchParams({ email: signup.email, uid: signup.uid });
    if (signup.tid) form.set('tid', signup.tid);
    if (signup.refId) form.set('ref_id', signup.refId);
    return this.post('/track/signup', form, idempotencyKey);
  }

  async trackSale(sale: AffiliateSale, idempotencyKey: string): Promise<ProviderAnswer> {
    const form = new URLSearchParams({ email: sale.email, event_id: sale.eventId, amount: String(sale.amountCents), plan: sale.plan });
    if (sale.uid) form.set('uid', sale.uid);
    if (sale.tid) form.set('tid', sale.tid);
    if (sale.refId) form.set('ref_id', sale.refId);
    return this.post('/track/sale', form, idempotencyKey);
  }

  /** FirstPromoter's refund tracking (POST /track/refund): the commission of the sale is reversed by the amount refunded. */
  async trackRefund(refund: AffiliateRefund, idempotencyKey: string): Promise<ProviderAnswer> {
    const form = new URLSearchParams({
      email: refund.email,
      event_id: refund.eventId,
      amount: String(refund.amountCents),
      sale_event_id: refund.saleEventId,
    });
    if (refund.uid) form.set('uid', refund.uid);
    return this.post('/track/refund', form, idempotencyKey);
  }

  private async post(path: string, form: URLSearchParams, idempotencyKey: string): Promise<ProviderAnswer> {
    const response = await postOrUnavailable(SERVICE, `${this.config.AFFILIATE_API_URL.replace(/\/$/, '')}${path}`, {
      headers: {
        'x-api-key': this.config.AFFILIATE_API_KEY ?? '',
        'content-type': 'application/x-www-form-urlencoded',
        'idempotency-key': idempotencyKey,
      },
      body: form.toString(),
      timeoutMs: this.config.AFFILIATE_TIMEOUT_MS,
    });
    const body = await response.text();
    if (response.ok) return { outcome: 'done', detail: { status: response.status } };
    // A repeated idempotency key, or a signup or sale (event_id) already tracked: an earlier attempt got through.
    if (response.status === 409 || (response.status === 422 && DUPLICATE_BODY.test(body))) {
      return { outcome: 'duplicate', detail: { status: response.status } };
    }
    // Other 4xx (but 408 and 429) will not change on retry.
    if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
      return { outcome: 'rejected', reason: `${SERVICE} answered ${response.status}`, detail: { status: response.status } };
    }
    throw new AffiliateUnavailableError(response.status);
  }
}
