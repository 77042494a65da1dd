import { BLACKCARD_GRANT } from '@contracts/blackcard-grant';
import type { Invitee } from './invitee-session';

/**
 * The invitee the server granted this document to (@contracts/blackcard-grant): present only when
 * the server checked the query token and sent /blackcard with its content. Null on the verifying
 * document, during the prerender, and for anything malformed. Imports nothing of React: the
 * page's entry reads it before React loads (src/pages/blackcard.load.ts).
 */
export function readServerGrant(): Invitee | null {
  if (typeof document === 'undefined') return null;
  const element = document.getElementById(BLACKCARD_GRANT.elementId);
  if (!element?.textContent) return null;
  try {
    const grant = JSON.parse(element.textContent) as Partial<Record<keyof Invitee, unknown>>;
    const { token, email, name } = grant;
    return typeof token === 'string' && typeof email === 'string' && typeof name === 'string' && token && email && name
      ? { token, email, name }
      : null;
  } catch {
    return null;
  }
}

/**
 * The invitee the prerender of the granted document renders with. None of it reaches the markup:
 * the content's only use of the invitee is its links' hrefs, which exist once React owns them.
 */
export const PRERENDERED_GRANT: Invitee = { token: 'prerendered', email: 'prerendered', name: 'prerendered' };
