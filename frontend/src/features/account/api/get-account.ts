import type { AccountMembership, AccountResponse } from '@contracts/account';
import { startTransition, useCallback, useEffect, useState } from 'react';
import { apiGet } from '@/lib/api-client';

const accountKey = ['api', 'account'] as const;

/** The signed-in buyer's memberships; null without a session (401). */
function getAccount(signal?: AbortSignal): Promise<AccountResponse | null> {
  return apiGet<AccountResponse>(accountKey, { signal, on401: 'null' });
}

type AccountState = { status: 'pending' } | { status: 'error' } | { status: 'ready'; account: AccountResponse | null };

export interface AccountData {
  state: AccountState;
  /** Asks the server again (after a failed load). */
  reload: () => void;
  /** The buyer signed out: no account, without asking. */
  forget: () => void;
  /** A membership the server changed (cancel, resume, new card): shown at once. */
  update: (membership: AccountMembership) => void;
}

/**
 * The account, read without the query library (the page is an island of the prerendered /account,
 * and the same screen in the SPA): once per mount when `enabled`, never retried on its own (spec
 * section 9), again on `reload`. The answer renders as a transition.
 */
export function useAccount(enabled: boolean): AccountData {
  const [state, setState] = useState<AccountState>({ status: 'pending' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const settle = (next: AccountState) => {
      if (!controller.signal.aborted) startTransition(() => setState(next));
    };
    getAccount(controller.signal).then(
      (account) => settle({ status: 'ready', account }),
      () => settle({ status: 'error' }),
    );
    return () => controller.abort();
  }, [enabled, attempt]);

  const reload = useCallback(() => {
    setState({ status: 'pending' });
    setAttempt((n) => n + 1);
  }, []);
  const forget = useCallback(() => setState({ status: 'ready', account: null }), []);
  const update = useCallback(
    (membership: AccountMembership) =>
      setState((current) =>
        current.status === 'ready' && current.account
          ? {
              status: 'ready',
              account: {
                ...current.account,
                memberships: current.account.memberships.map((m) => (m.orderId === membership.orderId ? membership : m)),
              },
            }
          : current,
      ),
    [],
  );
  return { state, reload, forget, update };
}
