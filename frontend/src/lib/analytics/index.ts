import { env } from '../env';
import { consentChoice, subscribeToConsent } from './consent';
import type { AnalyticsAdapter, AnalyticsEvent } from './events';
import { sendFunnelBeacon } from './funnel-beacon';

export type { AnalyticsEvent } from './events';

/** True when the site's settings name a vendor id; the consent banner and its settings show only then. */
export const analyticsEnabled = env.ga4Id !== null || env.metaPixelId !== null;

/** Events kept while the visitor has not answered yet, so the landing page view is not lost on accept. */
const MAX_WAITING_EVENTS = 50;

/** off: events are dropped (no vendor, or declined); waiting: kept until consent and vendors are ready; on: sent. */
let mode: 'off' | 'waiting' | 'on' = 'off';
let waiting: AnalyticsEvent[] = [];
let adapters: AnalyticsAdapter[] = [];
let vendorsLoading: Promise<void> | null = null;
let initialised = false;

/**
 * Starts analytics as the visitor's consent allows (the ids of the site's settings, lib/env.ts). With no id configured,
 * or until the visitor accepts, no vendor code or script is loaded and nothing leaves the site.
 */
export function initAnalytics(): void {
  if (initialised || !analyticsEnabled) return;
  initialised = true;
  applyConsent();
  subscribeToConsent(applyConsent);
}

function applyConsent(): void {
  const choice = consentChoice();
  if (choice === 'granted') grant();
  else if (choice === 'denied') revoke();
  else mode = 'waiting';
}

function grant(): void {
  if (mode === 'on') return;
  mode = 'waiting';
  vendorsLoading ??= import('./vendors')
    .then(({ createVendorAdapters }) => {
      adapters = createVendorAdapters({ ga4Id: env.ga4Id, metaPixelId: env.metaPixelId });
    })
    .catch((error: unknown) => console.warn('Analytics could not start', error));
  void vendorsLoading.then(() => {
    // The visitor may have declined again while the vendor code was loading.
    if (consentChoice() !== 'granted' || mode === 'on') return;
    adapters.forEach((adapter) => adapter.setConsent(true));
    mode = 'on';
    const backlog = waiting;
    waiting = [];
    backlog.forEach(deliver);
  });
}

function revoke(): void {
  if (mode === 'on') adapters.forEach((adapter) => adapter.setConsent(false));
  mode = 'off';
  waiting = [];
}

export function track(event: AnalyticsEvent): void {
  sendFunnelBeacon(event);
  deliver(event);
}

/** Hands an event to the vendors as consent allows; the first-party beacon was already sent. */
function deliver(event: AnalyticsEvent): void {
  if (mode === 'waiting') {
    if (waiting.length < MAX_WAITING_EVENTS) waiting.push(event);
    return;
  }
  if (mode === 'off') return;
  for (const adapter of adapters) {
    try {
      adapter.track(event);
    } catch (error) {
      console.warn(`Analytics event ${event.name} failed`, error);
    }
  }
}

export function trackPageView(pagePath: string, pageTitle: string): void {
  track({ name: 'PageView', params: { page_path: pagePath, page_title: pageTitle } });
}

/** A stable pseudonymous id for a visitor's e-mail (FNV-1a, base 36): vendors never see the address. */
export function analyticsUserId(email: string): string {
  let hash = 0x811c9dc5;
  for (const char of email.trim().toLowerCase()) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}
