import { ROUTES } from '@contracts/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { PageHeading } from '@/components/page-heading';
import { account as copy } from '@/content/account';
import { pages } from '@/content/pages';
import { ApiError } from '@/lib/api-client';
import { forgetPageQueryValue } from '@/lib/personal-query';
import { accountKey, useAccount } from '../api/get-account';
import { openSession } from '../api/open-session';
import { signOut } from '../api/account-actions';
import { MembershipCard } from './membership-card';
import { SignInForm } from './sign-in-form';
import '../account.css';

type Exchange = { state: 'idle' } | { state: 'exchanging' } | { state: 'failed'; message: string };

/**
 * /account. With `?token=` (moved out of the address bar before any script runs, see
 * personal-query-guard.ts), the token is exchanged once for the session cookie and forgotten,
 * and the entry's address is rewritten without it. Signed in: the memberships; otherwise the
 * sign-in link form.
 */
export function AccountPage({ token }: { token: string | null }) {
  const queryClient = useQueryClient();
  const [exchange, setExchange] = useState<Exchange>(token ? { state: 'exchanging' } : { state: 'idle' });
  const exchanged = useRef<string | null>(null);

  useEffect(() => {
    if (!token || exchanged.current === token) return;
    exchanged.current = token;
    // Used once, whatever the answer: a reload must not offer it again.
    forgetPageQueryValue('token');
    window.history.replaceState(window.history.state, '', ROUTES.account);
    openSession(token).then(
      () => {
        setExchange({ state: 'idle' });
        void queryClient.invalidateQueries({ queryKey: accountKey });
      },
      (error: unknown) => {
        const message = error instanceof ApiError ? (error.serverMessage ?? copy.signIn.errorFallback) : copy.signIn.networkError;
        setExchange({ state: 'failed', message });
      },
    );
  }, [token, queryClient]);

  const query = useAccount(exchange.state !== 'exchanging');
  const data = query.data;

  let body;
  if (exchange.state === 'exchanging' || query.isPending) {
    body = (
      <p className="account__status" role="status">
        {exchange.state === 'exchanging' ? copy.exchanging : copy.loading}
      </p>
    );
  } else if (query.isError) {
    body = (
      <div className="account__panel" role="alert">
        <p>{copy.loadError}</p>
        <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
          {copy.retry}
        </button>
      </div>
    );
  } else if (!data) {
    body = <SignInForm linkError={exchange.state === 'failed' ? exchange.message : null} />;
  } else {
    body = (
      <>
        <section aria-labelledby="account-memberships">
          <h2 id="account-memberships" className="account__subheading">
            {copy.membershipsHeading}
          </h2>
          {data.memberships.length === 0 ? <p>{copy.empty}</p> : null}
          <ul className="account__list">
            {data.memberships.map((membership) => (
              <li key={membership.orderId}>
                <MembershipCard membership={membership} provider={data.provider} csrfToken={data.csrfToken} />
              </li>
            ))}
          </ul>
        </section>
        <button
          type="button"
          className="button button--secondary account__sign-out"
          onClick={() =>
            void signOut()
              .catch(() => undefined)
              .then(() => queryClient.setQueryData(accountKey, null))
          }
        >
          {copy.signOut}
        </button>
      </>
    );
  }

  return (
    <main className="account">
      <div className="account__inner">
        <PageHeading testId="account-heading">{pages.account.heading}</PageHeading>
        {body}
      </div>
    </main>
  );
}
