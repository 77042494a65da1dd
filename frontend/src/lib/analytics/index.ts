import { env } from '../env';
import type { AnalyticsAdapter, AnalyticsEvent } from './events';

export type { AnalyticsEvent } from './events';

let adapters: AnalyticsAdapter[] = [];
/** Events raised while the vendor adapters are still loading; null when nothing is loading. */
let queued: AnalyticsEvent[] | null = null;
let initialised = false;

/**
 * Starts the configured vendors (Vite build-time ids). With no id configured no vendor code or
 * script is loaded at all and events go nowhere.
 */
export function initAnalytics(): void {
  if (initialised) return;
  initialised = true;
  const { ga4Id, metaPixelId } = env;
  if (!ga4Id && !metaPixelId) return;
  queued = [];
  import('./vendors')
    .then(({ createVendorAdapters }) => {
      adapters = createVendorAdapters({ ga4Id, metaPixelId });
    })
    .catch((error: unknown) => console.warn('Analytics could not start', error))
    .finally(() => {
      const backlog = queued ?? [];
      queued = null;
      backlog.forEach(track);
    });
}

export function track(event: AnalyticsEvent): void {
  if (queued) {
    queued.push(event);
    return;
  }
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
