import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { minorUnitsPerMajor } from '@contracts/money';
import { AnalyticsConfig } from '@core/config/config-sections';
import { isRetryableStatus, NotConfiguredError, postOrUnavailable, type ProviderResponse, ProviderUnavailableError } from './provider-call';
import type { ProviderAnswer } from '../ledger/provider-call-ledger';
import type { PurchaseAddOn } from './ga4-measurement.client';

const SERVICE = 'Meta Conversions API';

/** What the server knows about a paid order, plus the browser context stored with the lead or order. */
export interface MetaPurchase {
  /** The id the browser pixel sent with its Purchase: Meta keeps one of the two events. */
  eventId: string;
  /** When the payment succeeded; Meta refuses events older than seven days. */
  eventTime: Date;
  email: string;
  amountCents: number;
  currency: string;
  /** The plan's name, sent as content_name. */
  plan: string;
  /** The plan's id, sent with the add-on's in contents when there is one. */
  planId?: string;
  /** The add-on (order bump) bought with the plan: listed in contents beside the plan. */
  addOn?: PurchaseAddOn;
  eventSourceUrl?: string;
  fbp?: string;
  fbc?: string;
  clientUserAgent?: string;
  clientIpAddress?: string;
  /** Sends the event to Events Manager's Test Events with this code (test orders only). */
  testEventCode?: string;
}

/** The body of one Conversions API request (one Purchase event). */
export interface MetaEventsRequest {
  data: Array<{
    event_name: 'Purchase';
    event_time: number;
    event_id: string;
    action_source: 'website';
    event_source_url?: string;
    user_data: { em: string[]; fbp?: string; fbc?: string; client_user_agent?: string; client_ip_address?: string };
    custom_data: {
      currency: string;
      value: number;
      content_name: string;
      content_type?: 'product';
      contents?: Array<{ id: string; quantity: 1; item_price: number }>;
    };
  }>;
  test_event_code?: string;
}

/** Graph API error codes that mean "try again later" (throttling, temporary service trouble). */
const TRANSIENT_CODES = new Set([1, 2, 4, 17, 32, 341, 613, 80004]);

/** Meta's user_data normalisation: trim and lower-case, then SHA-256 in hex. */
export function hashEmail(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

/** A purchase with an add-on lists both items (each with its price) in contents; a plan alone keeps the plain event. */
function contentsOf(purchase: MetaPurchase, unit: number): Pick<MetaEventsRequest['data'][number]['custom_data'], 'content_type' | 'contents'> {
  const { addOn } = purchase;
  if (!addOn) return {};
  return {
    content_type: 'product',
    contents: [
      { id: purchase.planId ?? purchase.plan, quantity: 1, item_price: (purchase.amountCents - addOn.amountCents) / unit },
      { id: addOn.id, quantity: 1, item_price: addOn.amountCents / unit },
    ],
  };
}

export function metaPurchaseRequest(purchase: MetaPurchase): MetaEventsRequest {
  const unit = minorUnitsPerMajor(purchase.currency);
  const userData: MetaEventsRequest['data'][number]['user_data'] = { em: [hashEmail(purchase.email)] };
  if (purchase.fbp) userData.fbp = purchase.fbp;
  if (purchase.fbc) userData.fbc = purchase.fbc;
  if (purchase.clientUserAgent) userData.client_user_agent = purchase.clientUserAgent;
  if (purchase.clientIpAddress) userData.client_ip_address = purchase.clientIpAddress;
  return {
    data: [
      {
        event_name: 'Purchase',
        event_time: Math.floor(purchase.eventTime.getTime() / 1000),
        event_id: purchase.eventId,
        action_source: 'website',
        ...(purchase.eventSourceUrl ? { event_source_url: purchase.eventSourceUrl } : {}),
        user_data: userData,
        custom_data: { currency: purchase.currency, value: purchase.amountCents / unit, content_name: purchase.plan, ...contentsOf(purchase, unit) },
      },
    ],
    ...(purchase.testEventCode ? { test_event_code: purchase.testEventCode } : {}),
  };
}

/**
 * Server-side Purchase through Meta's Conversions API. Meta has no idempotency header: it keeps
 * one event per (event_name, event_id), which also folds this event into the browser pixel's.
 */
@Injectable()
export class MetaConversionsClient {
  constructor(private readonly config: AnalyticsConfig) {}

  get configured(): boolean {
    return Boolean(this.config.META_PIXEL_ID && this.config.META_CAPI_ACCESS_TOKEN);
  }

  async sendPurchase(purchase: MetaPurchase): Promise<ProviderAnswer> {
    const { META_PIXEL_ID: pixelId, META_CAPI_ACCESS_TOKEN: token } = this.config;
    if (!pixelId || !token) throw new NotConfiguredError(SERVICE);
    const base = this.config.META_CAPI_URL.replace(/\/$/, '');
    const url = `${base}/${this.config.META_GRAPH_API_VERSION}/${encodeURIComponent(pixelId)}/events?access_token=${encodeURIComponent(token)}`;
    const response = await postOrUnavailable(SERVICE, url, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(metaPurchaseRequest(purchase)),
      timeoutMs: this.config.ANALYTICS_TIMEOUT_MS,
    });
    const body = await readJson(response);
    if (response.ok) {
      return {
        outcome: 'done',
        detail: { status: response.status, eventsReceived: numberOrNull(body.events_received), fbtraceId: stringOrNull(body.fbtrace_id) },
      };
    }
    const error = (body.error ?? {}) as { code?: unknown; is_transient?: unknown; fbtrace_id?: unknown };
    const code = typeof error.code === 'number' ? error.code : null;
    // Graph errors carry their own retry hint; the message text is not kept (it can quote the request).
    if (isRetryableStatus(response.status) || error.is_transient === true || (code !== null && TRANSIENT_CODES.has(code))) {
      throw new ProviderUnavailableError(SERVICE, `answered ${response.status}${code === null ? '' : ` (code ${code})`}`);
    }
    return {
      outcome: 'rejected',
      reason: `${SERVICE} answered ${response.status}${code === null ? '' : ` (code ${code})`}`,
      detail: { status: response.status, code, fbtraceId: stringOrNull(error.fbtrace_id) },
    };
  }
}

async function readJson(response: ProviderResponse): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
