import type { BeaconRequest } from '@contracts/admin';
import { resolveReferral } from '../referral';
import { visitorId } from '../visitor';
import type { AnalyticsEvent } from './events';

/**
 * Our own record of page views and checkout starts (POST /api/beacon), for the funnel dashboard.
 * It carries no personal data (a random visitor id, the path without its query string, the plan,
 * the referral id) and goes to no third party, so it needs no consent. Admin pages, not the funnel,
 * never load it (admin.html).
 */
export function sendFunnelBeacon(event: AnalyticsEvent): void {
  const path = window.location.pathname;
  let body: BeaconRequest;
  if (event.name === 'PageView') body = { type: 'page_view', visitorId: visitorId(), path, referral: resolveReferral() };
  else if (event.name === 'InitiateCheckout')
    body = { type: 'checkout_start', visitorId: visitorId(), path, plan: event.params.plan, referral: resolveReferral() };
  else return;
  const json = JSON.stringify(body);
  // sendBeacon survives the page being left; it posts the string as text/plain, which the API accepts.
  try {
    if (navigator.sendBeacon?.('/api/beacon', json)) return;
  } catch {
    // Some browsers throw on a blocked beacon; the fetch below is the fallback either way.
  }
  fetch('/api/beacon', { method: 'POST', body: json, keepalive: true, headers: { 'Content-Type': 'application/json' } }).catch(
    () => undefined,
  );
}
