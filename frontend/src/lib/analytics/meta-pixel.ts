import { loadScript } from '../load-script';
import type { AnalyticsAdapter } from './events';

interface Fbq {
  (...args: unknown[]): void;
  callMethod?: (...args: unknown[]) => void;
  queue: unknown[];
  push: Fbq;
  loaded: boolean;
  version: string;
}

declare global {
  interface Window {
    fbq?: Fbq;
    _fbq?: Fbq;
  }
}

/** The pixel's own bootstrap (a queue until fbevents.js arrives), written as module code so no inline script is needed. */
function installFbq(): Fbq {
  if (window.fbq) return window.fbq;
  const fbq = function queueOrCall(...args: unknown[]) {
    if (fbq.callMethod) fbq.callMethod(...args);
    // fbevents.js replays the queued `arguments` objects exactly as the official snippet queues them.
    // eslint-disable-next-line prefer-rest-params -- the arguments object itself, as explained above
    else fbq.queue.push(arguments);
  } as Fbq;
  fbq.push = fbq;
  fbq.loaded = true;
  fbq.version = '2.0';
  fbq.queue = [];
  window.fbq = fbq;
  window._fbq ??= fbq;
  return fbq;
}

export function createMetaPixelAdapter(pixelId: string): AnalyticsAdapter {
  const fbq = installFbq();
  // The pixel holds every call until consent is granted; revoke must come before init to take effect.
  fbq('consent', 'revoke');
  // Automatic event setup scrapes buttons and form fields; the funnel reports its events explicitly.
  fbq('set', 'autoConfig', false, pixelId);
  fbq('init', pixelId);
  loadScript('https://connect.facebook.net/en_US/fbevents.js').catch((error: unknown) => console.warn('Meta pixel failed to load', error));
  return {
    track(event) {
      // The pixel de-duplicates against the Conversions API by this eventID.
      if ('eventId' in event) fbq('track', event.name, event.params, { eventID: event.eventId });
      else fbq('track', event.name, event.params);
    },
    setConsent(granted) {
      fbq('consent', granted ? 'grant' : 'revoke');
    },
  };
}
