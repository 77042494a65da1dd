import { startTransition, useEffect, useState } from 'react';
import { PageHeading } from '@/components/page-heading';
import { account as copy } from '@/content/account';
import { pages } from '@/content/pages';
import { defineIsland } from '@/lib/islands';
import { pageQuery } from '@/lib/personal-query';
import { useAccount } from '../api/get-account';
import { signOut } from '../api/account-actions';
import { LinkSignIn } from './link-sign-in';
import { MembershipCard } from './membership-card';
import { SignInForm } from './sign-in-form';
import '../account.css';

/** The e-mailed link's token, once exchanged: failed with the server's message, or not. */
type Exchanged = { token: string; failed: string | null };

/**
 * /account. With `?token=` (moved out of the address bar before any script runs, see
 * personal-query-guard.ts), the page offers 'Sign in to your account' and exchanges the token
 * once pressed (LinkSignIn). Signed in: the memberships; otherwise the sign-in link form.
 * `token` is undefined while the page's query is not known yet (the prerendered page before
 * React owns it): the loading line, and nothing asked.
 */
export function AccountPage({ token }: { token: string | null | undefined }) {
  const [exchanged, setExchanged] = useState<Exchanged | null>(null);
  const linkOpened = Boolean(token) && exchanged?.token !== token;
  const account = useAccount(token !== undefined && !linkOpened);
  const { state } = account;

  let body;
  if (token && linkOpened) {
    body = <LinkSignIn token={token} onAnswered={(failed) => startTransition(() => setExchanged({ token, failed }))} />;
  } else if (state.status === 'pending') {
    body = (
      <p className="account__status" role="status">
        {copy.loading}
      </p>
    );
  } else if (state.status === 'error') {
    body = (
      <div className="account__panel" role="alert">
        <p>{copy.loadError}</p>
        <button type="button" className="button button--secondary" onClick={account.reload}>
          {copy.retry}
        </button>
      </div>
    );
  } else if (!state.account) {
    body = <SignInForm linkError={exchanged?.failed ?? null} />;
  } else {
    const data = state.account;
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
                <MembershipCard membership={membership} provider={data.provider} csrfToken={data.csrfToken} onChanged={account.update} />
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
              .then(account.forget)
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
        <p className="account__lead">{copy.lead}</p>
        {body}
      </div>
    </main>
  );
}

/**
 * The prerendered /account is its heading, its lead and the loading line: its HTML cannot know the
 * visitor's session. Once React owns the page it reads the query (a sign-in link's token, which
 * personal-query-guard.ts moved out of the address bar) and asks the server.
 */
function PrerenderedAccountPage() {
  const [token, setToken] = useState<string | null | undefined>(undefined);
  useEffect(() => startTransition(() => setToken(pageQuery(window.location.search).get('token'))), []);
  return <AccountPage token={token} />;
}

export const accountIsland = defineIsland('account', () => <PrerenderedAccountPage />);
