import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { minorUnitsPerMajor } from '@contracts/money';
import { AnalyticsConfig } from '@core/config/config-sections';
import { isRetryableStatus, postOrUnavailable, NotConfiguredError, ProviderUnavailableError } from './provider-call';
import type { ProviderAnswer } from '../ledger/provider-call-ledger';

const SERVICE = 'GA4 Measurement Protocol';

/** GA4 accepts events back-dated by at most 72 hours; older ones are sent as of now. */
const MAX_BACKDATE_MS = 72 * 3600 * 1000;

export interface Ga4Purchase {
  /** The payment's id: GA4 counts one purchase per transaction_id. */
  transactionId: string;
  /** The client id from the stored `_ga` cookie; without one a stable id is derived from the transaction. */
  clientId?: string;
  userId?: string;
  /** From the `_ga_<stream>` cookie (see ga4SessionIdFromCookie): joins the purchase to the visit. */
  sessionId?: string;
  amountCents: number;
  currency: string;
  planId: string;
  planName: string;
  /** The add-on (order bump) bought with the plan: a second item, its part of `amountCents`. */
  addOn?: PurchaseAddOn;
  /** When the payment succeeded: sent as the event time when GA4 still accepts it. */
  eventTime: Date;
}

/** An add-on bought with a plan (an order bump), as the purchase events list it beside the plan. */
export interface PurchaseAddOn {
  id: string;
  name: string;
  amountCents: number;
}

export interface Ga4PurchaseRequest {
  client_id: string;
  user_id?: string;
  timestamp_micros?: number;
  events: Array<{
    name: 'purchase';
    params: {
      transaction_id: string;
      value: number;
      currency: string;
      items: Array<{ item_id: string; item_name: string; price: number; quantity: 1 }>;
      session_id?: string;
      engagement_time_msec: number;
    };
  }>;
}

/**
 * A GA client id for a buyer whose `_ga` cookie was not stored: the cookie's own shape
 * (<random 31-bit>.<seconds>), derived from the transaction so that a resend is the same request.
 */
export function derivedClientId(transactionId: string, at: Date): string {
  const random = createHash('sha256').update(transactionId).digest().readUInt32BE(0) >>> 1;
  return `${random}.${Math.floor(at.getTime() / 1000)}`;
}

/** The session id from a `_ga_<stream>` cookie value, in its GS1 (`GS1.1.<id>.…`) or GS2 (`GS2.1.s<id>$…`) format. */
export function ga4SessionIdFromCookie(value: string): string | undefined {
  return value.match(/^GS1\.\d+\.(\d+)\./)?.[1] ?? value.match(/^GS2\.\d+\.s(\d+)(\$|$)/)?.[1];
}

export function ga4PurchaseRequest(purchase: Ga4Purchase, now = new Date()): Ga4PurchaseRequest {
  const unit = minorUnitsPerMajor(purchase.currency);
  const value = purchase.amountCents / unit;
  const { addOn } = purchase;
  const planPrice = (purchase.amountCents - (addOn?.amountCents ?? 0)) / unit;
  const request: Ga4PurchaseRequest = {
    client_id: purchase.clientId ?? derivedClientId(purchase.transactionId, purchase.eventTime),
    events: [
      {
        name: 'purchase',
        params: {
          transaction_id: purchase.transactionId,
          value,
          currency: purchase.currency,
          items: [
            { item_id: purchase.planId, item_name: purchase.planName, price: planPrice, quantity: 1 },
            ...(addOn ? [{ item_id: addOn.id, item_name: addOn.name, price: addOn.amountCents / unit, quantity: 1 as const }] : []),
          ],
          ...(purchase.sessionId ? { session_id: purchase.sessionId } : {}),
          // GA4 shows a server event in its realtime and engagement reports only with a positive value.
          engagement_time_msec: 1,
        },
      },
    ],
  };
  if (purchase.userId) request.user_id = purchase.userId;
  if (now.getTime() - purchase.eventTime.getTime() < MAX_BACKDATE_MS) {
    request.timestamp_micros = purchase.eventTime.getTime() * 1000;
  }
  return request;
}

/** A refund of a purchase: GA4 takes it off the purchase with the same transaction_id. */
export interface Ga4Refund {
  /** The purchase's transaction_id (the payment's provider id). */
  transactionId: string;
  clientId?: string;
  sessionId?: string;
  amountCents: number;
  currency: string;
  eventTime: Date;
}

export interface Ga4RefundRequest {
  client_id: string;
  timestamp_micros?: number;
  events: Array<{
    name: 'refund';
    params: { transaction_id: string; value: number; currency: string; session_id?: string; engagement_time_msec: number };
  }>;
}

export function ga4RefundRequest(refund: Ga4Refund, now = new Date()): Ga4RefundRequest {
  const request: Ga4RefundRequest = {
    client_id: refund.clientId ?? derivedClientId(refund.transactionId, refund.eventTime),
    events: [
      {
        name: 'refund',
        params: {
          transaction_id: refund.transactionId,
          value: refund.amountCents / minorUnitsPerMajor(refund.currency),
          currency: refund.currency,
          ...(refund.sessionId ? { session_id: refund.sessionId } : {}),
          engagement_time_msec: 1,
        },
      },
    ],
  };
  if (now.getTime() - refund.eventTime.getTime() < MAX_BACKDATE_MS) request.timestamp_micros = refund.eventTime.getTime() * 1000;
  return request;
}

/**
 * Server-side purchase through GA4's Measurement Protocol. It has no idempotency key and answers
 * 2xx even to payloads it drops: the ledger sends once, and transaction_id de-duplicates in GA4.
 */
@Injectable()
export class Ga4MeasurementClient {
  constructor(private readonly config: AnalyticsConfig) {}

  get configured(): boolean {
    return Boolean(this.config.GA4_MEASUREMENT_ID && this.config.GA4_API_SECRET);
  }

  sendPurchase(purchase: Ga4Purchase): Promise<ProviderAnswer> {
    return this.collect(ga4PurchaseRequest(purchase));
  }

  /** The Measurement Protocol's `refund` event; like a purchase, sent once (the ledger) and counted once per transaction_id. */
  sendRefund(refund: Ga4Refund): Promise<ProviderAnswer> {
    return this.collect(ga4RefundRequest(refund));
  }

  private async collect(body: Ga4PurchaseRequest | Ga4RefundRequest): Promise<ProviderAnswer> {
    const { GA4_MEASUREMENT_ID: measurementId, GA4_API_SECRET: secret } = this.config;
    if (!measurementId || !secret) throw new NotConfiguredError(SERVICE);
    const query = new URLSearchParams({ measurement_id: measurementId, api_secret: secret });
    const response = await postOrUnavailable(SERVICE, `${this.config.GA4_MP_URL.replace(/\/$/, '')}/mp/collect?${query.toString()}`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      timeoutMs: this.config.ANALYTICS_TIMEOUT_MS,
    });
    // GA4 answers no body worth keeping.
    await response.discard();
    if (response.ok) return { outcome: 'done', detail: { status: response.status } };
    if (isRetryableStatus(response.status)) throw new ProviderUnavailableError(SERVICE, `answered ${response.status}`);
    return { outcome: 'rejected', reason: `${SERVICE} answered ${response.status}`, detail: { status: response.status } };
  }
}
