import type { LeadAttribution } from '@contracts/api-types';
import { sessionStore } from './storage';

const ATTRIBUTION_KEY = 'lead_attribution';

/** Longest value the lead API accepts per field; longer ad-platform values are cut, not rejected. */
const MAX_LENGTH: Record<keyof LeadAttribution, number> = {
  utm_source: 300,
  utm_medium: 300,
  utm_campaign: 300,
  utm_term: 300,
  utm_content: 300,
  gclid: 500,
  fbclid: 500,
  landing_path: 500,
};
const URL_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'gclid', 'fbclid'] as const;

function clean(attribution: LeadAttribution): LeadAttribution {
  const result: LeadAttribution = {};
  for (const field of Object.keys(MAX_LENGTH) as (keyof LeadAttribution)[]) {
    const value = attribution[field];
    if (typeof value === 'string' && value.trim()) result[field] = value.trim().slice(0, MAX_LENGTH[field]);
  }
  return result;
}

/** Records the campaign parameters of the first page of the visit; later pages never overwrite them. */
export function captureAttribution(): void {
  if (sessionStore.get(ATTRIBUTION_KEY) !== null) return;
  const params = new URLSearchParams(window.location.search);
  const captured: LeadAttribution = { landing_path: window.location.pathname };
  for (const field of URL_FIELDS) captured[field] = params.get(field) ?? undefined;
  sessionStore.setJson(ATTRIBUTION_KEY, clean(captured));
}

/** The stored attribution without empty fields, or undefined when there is nothing to send. */
export function readAttribution(): LeadAttribution | undefined {
  const stored = sessionStore.getJson<LeadAttribution>(ATTRIBUTION_KEY);
  if (!stored || typeof stored !== 'object') return undefined;
  const attribution = clean(stored);
  return Object.keys(attribution).length > 0 ? attribution : undefined;
}
