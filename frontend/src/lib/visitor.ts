import { localStore, sessionStore } from './storage';

/**
 * Remembers the e-mail given at lead capture for the later funnel steps. Session-scoped on
 * purpose: it should not outlive the visit on a shared device.
 */
const VISITOR_EMAIL_KEY = 'visitor_email';

export function rememberVisitorEmail(email: string): void {
  sessionStore.set(VISITOR_EMAIL_KEY, email);
}

/** The anonymous id of this browser for the first-party funnel counts: random, never derived from the person. */
const VISITOR_ID_KEY = 'clear.visitor-id';

function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Kept in localStorage so a returning browser counts once; without storage every page is a new visitor. */
export function visitorId(): string {
  const stored = localStore.get(VISITOR_ID_KEY);
  if (stored && /^[A-Za-z0-9-]{16,64}$/.test(stored)) return stored;
  const id = randomId();
  localStore.set(VISITOR_ID_KEY, id);
  return id;
}
