import { sessionStore } from './storage';

/**
 * Remembers the e-mail given at lead capture for the later funnel steps. Session-scoped on
 * purpose: it should not outlive the visit on a shared device.
 */
const VISITOR_EMAIL_KEY = 'visitor_email';

export function rememberVisitorEmail(email: string): void {
  sessionStore.set(VISITOR_EMAIL_KEY, email);
}
