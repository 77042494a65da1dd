import { captureAttribution } from './attribution';
import { env } from './env';
import { loadScript } from './load-script';
import { sessionStore } from './storage';

/** Spec section 4 "Referral resolution" and section 9 "Referral tracking". */
const REFERRAL_COOKIE = '_fprom_tid';
const REFERRAL_URL_PARAMS = ['fp_ref', 'via', 'fpr'] as const;
const REFERRAL_STORAGE_KEY = 'referral_id';
/** A stored value is only trusted when it looks like a tracking id, i.e. longer than this. */
const MIN_STORED_REFERRAL_LENGTH = 20;

export interface PollSettings {
  timeoutMs: number;
  intervalMs: number;
}
/** @public Read by referral.spec.ts through a `require` that Knip does not follow. */
export const DEFAULT_REFERRAL_POLL: PollSettings = { timeoutMs: 3000, intervalMs: 100 };
/** @public */
export const INIT_REFERRAL_POLL: PollSettings = { timeoutMs: 5000, intervalMs: 200 };

declare global {
  interface Window {
    FPROM?: { data?: { tid?: string | null } };
    fpr?: ((...args: unknown[]) => void) & { q?: unknown[][] };
  }
}

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      const value = decodeURIComponent(rest.join('='));
      return value || null;
    }
  }
  return null;
}

function readUrlReferral(search: string): string | null {
  const params = new URLSearchParams(search);
  for (const name of REFERRAL_URL_PARAMS) {
    const value = params.get(name)?.trim();
    if (value) return value;
  }
  return null;
}

/** Steps 1 and 2: the id the affiliate service itself assigned (cookie, then its global data). */
function readTrackerId(): string | null {
  return readCookie(REFERRAL_COOKIE) ?? (window.FPROM?.data?.tid?.trim() || null);
}

function remember(value: string): string {
  sessionStore.set(REFERRAL_STORAGE_KEY, value);
  return value;
}

/** Reading cookies, globals or storage can throw (blocked storage, malformed cookie): only logged, never shown. */
function safely(read: () => string | null): string | null {
  try {
    return read();
  } catch (error) {
    console.warn('Reading the referral id failed', error);
    return null;
  }
}

/** The referral id, checked in the spec's order; null when none is known. */
export function resolveReferral(): string | null {
  return safely(() => {
    const trackerId = readTrackerId();
    if (trackerId) return remember(trackerId);
    const stored = sessionStore.get(REFERRAL_STORAGE_KEY);
    if (stored && stored.length > MIN_STORED_REFERRAL_LENGTH) return stored;
    const fromUrl = readUrlReferral(window.location.search);
    return fromUrl ? remember(fromUrl) : null;
  });
}

/**
 * Waits for the affiliate script to publish its tracking id, resolving as soon as it does. Without
 * a configured affiliate script nobody will publish one, so it answers at once.
 */
export function waitForTrackingId({ timeoutMs, intervalMs }: PollSettings = DEFAULT_REFERRAL_POLL): Promise<string | null> {
  const found = () =>
    safely(() => {
      const trackerId = readTrackerId();
      return trackerId ? remember(trackerId) : null;
    });
  const immediate = found();
  if (immediate || !env.firstPromoterId) return Promise.resolve(immediate);
  return new Promise((resolve) => {
    const startedAt = Date.now();
    const timer = window.setInterval(() => {
      const value = found();
      if (value || Date.now() - startedAt >= timeoutMs) {
        window.clearInterval(timer);
        resolve(value);
      }
    }, intervalMs);
  });
}

function installAffiliateScript(accountId: string): void {
  // FirstPromoter's documented bootstrap: a command queue that fpr.js drains once loaded.
  if (!window.fpr) {
    const fpr: NonNullable<Window['fpr']> = (...args: unknown[]) => {
      const queue = (fpr.q ??= []);
      if (args[0] === 'set') queue.unshift(args);
      else queue.push(args);
    };
    window.fpr = fpr;
  }
  window.fpr('init', { cid: accountId });
  window.fpr('click');
  loadScript('https://cdn.firstpromoter.com/fpr.js').catch((error: unknown) => console.warn('Affiliate script failed to load', error));
}

/**
 * Start-up routine: records where the visitor came from, stores a referral id carried in the URL,
 * and, when the affiliate script runs, waits longer for it to turn a referral link into its id.
 */
export function initReferralTracking(): void {
  captureAttribution();
  resolveReferral();
  if (!env.firstPromoterId) return;
  installAffiliateScript(env.firstPromoterId);
  if (readUrlReferral(window.location.search)) void waitForTrackingId(INIT_REFERRAL_POLL);
}
