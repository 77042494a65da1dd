import type { Notification } from './toast-card';

/**
 * Toasts are rare on the funnel's pages, so react-hot-toast and the toast area load on the first
 * notification instead of with every page.
 */
let hostNeeded = false;
const hostListeners = new Set<() => void>();

export function subscribeToToastHost(listener: () => void): () => void {
  hostListeners.add(listener);
  return () => hostListeners.delete(listener);
}

export function isToastHostNeeded(): boolean {
  return hostNeeded;
}

export function notify(notification: Notification): void {
  if (!hostNeeded) {
    hostNeeded = true;
    hostListeners.forEach((listener) => listener());
  }
  import('./toast-runtime')
    .then(({ showToast }) => showToast(notification))
    .catch((error: unknown) => console.error('Notification could not be shown', notification, error));
}
