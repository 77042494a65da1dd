/** Every marketing event the funnel sends (spec sections 3 and 7), in the shape the spec names. */
export type AnalyticsEvent =
  | { name: 'PageView'; params: { page_path: string; page_title: string } }
  | { name: 'Lead'; params: { user_id: string; event_category: string; event_label: string } }
  | { name: 'InitiateCheckout'; params: { plan: string; value: number; currency: string } }
  | {
      name: 'Purchase';
      params: { plan: string; value: number; currency: string; transaction_id: string };
      /** The server-side Purchase carries the same id, so the ad platforms count the sale once. */
      eventId: string;
    }
  | { name: 'ViewContent'; params: { content_name: string; content_category: string } };

export type AnalyticsEventName = AnalyticsEvent['name'];

export interface AnalyticsAdapter {
  track(event: AnalyticsEvent): void;
  /** Passes the visitor's consent to the vendor's own consent mechanism. */
  setConsent(granted: boolean): void;
}

/**
 * The page address reported to third parties: origin and path only. Funnel URLs carry the
 * visitor's e-mail and name in the query string, which must not reach analytics vendors.
 */
export function pageLocation(): string {
  return `${window.location.origin}${window.location.pathname}`;
}
