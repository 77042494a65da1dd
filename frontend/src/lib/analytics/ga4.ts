import { loadScript } from '../load-script';
import { pageLocation, type AnalyticsAdapter, type AnalyticsEventName } from './events';

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

const GA4_EVENT_NAMES: Record<AnalyticsEventName, string> = {
  PageView: 'page_view',
  Lead: 'generate_lead',
  InitiateCheckout: 'begin_checkout',
  Purchase: 'purchase',
  ViewContent: 'view_item',
};

function consentState(granted: boolean): Record<string, 'granted' | 'denied'> {
  const state = granted ? 'granted' : 'denied';
  return { ad_storage: state, ad_user_data: state, ad_personalization: state, analytics_storage: state };
}

export function createGa4Adapter(measurementId: string): AnalyticsAdapter {
  const dataLayer = (window.dataLayer ??= []);
  // gtag.js only understands the `arguments` objects of this exact function shape, not arrays.
  const gtag = (window.gtag ??= function gtag(..._args: unknown[]) {
    // eslint-disable-next-line prefer-rest-params -- the arguments object itself, as explained above
    dataLayer.push(arguments);
  });
  // Consent Mode v2: Google's tag must see a denied default before its config; setConsent updates it.
  gtag('consent', 'default', consentState(false));
  gtag('js', new Date());
  // Page views are sent by the router, once per route change, not by gtag's own page tracking.
  gtag('config', measurementId, { send_page_view: false, page_location: pageLocation() });
  loadScript(`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`).catch((error: unknown) =>
    console.warn('Google Analytics failed to load', error),
  );
  return {
    track(event) {
      gtag('event', GA4_EVENT_NAMES[event.name], { ...event.params, page_location: pageLocation() });
    },
    setConsent(granted) {
      gtag('consent', 'update', consentState(granted));
    },
  };
}
