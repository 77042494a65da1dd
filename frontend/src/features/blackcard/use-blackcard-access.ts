import { useContext, useEffect, useState } from 'react';
import { ApiError } from '@/lib/api-client';
import { PageNavigation } from '@/lib/page-navigation';
import { useValidateToken } from './api/validate-token';
import { readStoredInvitee, saveInvitee, type Invitee } from './invitee-session';

export type BlackcardAccess = { status: 'checking' } | { status: 'granted'; invitee: Invitee } | { status: 'denied' };

function queryToken(search: string): string | null {
  return new URLSearchParams(search).get('token')?.trim() || null;
}

/**
 * Spec section 4, /blackcard access. A query token is validated by the server and, when valid,
 * saved with its invitee; it is then taken out of the address bar so it does not linger in the
 * history. Without a query token the stored session must be complete. Anything else is denied.
 * `search` is the page's query string when the check starts (read once).
 */
export function useBlackcardAccess(search: string): BlackcardAccess {
  // Read once: removing the token from the address bar must not change the access decision.
  const [token] = useState(() => queryToken(search));
  const [stored] = useState(() => (token ? null : readStoredInvitee()));
  const validation = useValidateToken(token);
  const { data, error } = validation;
  const invitee = token && data ? { token, email: data.email, name: data.name } : null;

  useKeepInvitee(invitee);

  useEffect(() => {
    if (!error) return;
    // Logged without the token; the visitor is only sent to /invitation (spec section 8).
    const reason = error instanceof ApiError ? `HTTP ${error.status}` : 'network error';
    console.warn(`Access token rejected (${reason})`);
  }, [error]);

  if (!token) return stored ? { status: 'granted', invitee: stored } : { status: 'denied' };
  if (error) return { status: 'denied' };
  return invitee ? { status: 'granted', invitee } : { status: 'checking' };
}

/**
 * A granted invitee is kept for the visit (session storage), and the token leaves the address bar
 * so it does not linger in the history; the rest of the query stays. Null: nothing to keep yet.
 */
export function useKeepInvitee(invitee: Invitee | null): void {
  const goTo = useContext(PageNavigation);
  const { token = '', email = '', name = '' } = invitee ?? {};
  useEffect(() => {
    if (!token) return;
    saveInvitee({ token, email, name });
    const params = new URLSearchParams(window.location.search);
    if (!params.has('token')) return;
    params.delete('token');
    const rest = params.toString();
    goTo(`${window.location.pathname}${rest ? `?${rest}` : ''}${window.location.hash}`, { replace: true });
  }, [token, email, name, goTo]);
}
