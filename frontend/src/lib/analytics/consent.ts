import { localStore } from '../storage';

/** The visitor's answer in the consent banner. */
export type ConsentChoice = 'granted' | 'denied';

/**
 * Versioned so that a change of vendors or purposes asks every visitor again: answers stored
 * under an older key are simply never read.
 */
const CONSENT_STORAGE_KEY = 'clear.analytics-consent.v1';

/** Undefined until first read; memory wins over storage so a blocked storage still holds the answer for the visit. */
let choice: ConsentChoice | null | undefined;
let reviewing = false;
const listeners = new Set<() => void>();

function notifyListeners(): void {
  listeners.forEach((listener) => listener());
}

export function subscribeToConsent(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function consentChoice(): ConsentChoice | null {
  if (choice === undefined) {
    const stored = localStore.get(CONSENT_STORAGE_KEY);
    choice = stored === 'granted' || stored === 'denied' ? stored : null;
  }
  return choice;
}

export function chooseConsent(next: ConsentChoice): void {
  choice = next;
  reviewing = false;
  localStore.set(CONSENT_STORAGE_KEY, next);
  notifyListeners();
}

/** Reopens the banner so a visitor who already chose can change the answer. */
export function reviewConsent(): void {
  reviewing = true;
  notifyListeners();
}

export function isReviewingConsent(): boolean {
  return reviewing;
}

/** The banner shows until the visitor chooses, and again when they ask to change the choice. */
export function isConsentBannerOpen(): boolean {
  return reviewing || consentChoice() === null;
}
