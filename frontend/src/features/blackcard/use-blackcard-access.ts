import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ApiError } from '@/lib/api-client';
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
 */
export function useBlackcardAccess(): BlackcardAccess {
  const location = useLocation();
  const navigate = useNavigate();
  // Read once: removing the token from the address bar must not change the access decision.
  const [token] = useState(() => queryToken(location.search));
  const [stored] = useState(() => (token ? null : readStoredInvitee()));
  const validation = useValidateToken(token);
  const { data } = validation;
  const invitee = token && data ? { token, email: data.email, name: data.name } : null;

  useEffect(() => {
    if (!token || !data) return;
    saveInvitee({ token, email: data.email, name: data.name });
    const params = new URLSearchParams(location.search);
    if (!params.has('token')) return;
    params.delete('token');
    const search = params.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true, state: location.state as unknown },
    );
  }, [token, data, location, navigate]);

  useEffect(() => {
    if (!validation.error) return;
    // Logged without the token; the visitor is only sent to /invitation (spec section 8).
    const reason = validation.error instanceof ApiError ? `HTTP ${validation.error.status}` : 'network error';
    console.warn(`Access token rejected (${reason})`);
  }, [validation.error]);

  if (!token) return stored ? { status: 'granted', invitee: stored } : { status: 'denied' };
  if (validation.isError) return { status: 'denied' };
  return invitee ? { status: 'granted', invitee } : { status: 'checking' };
}
