import { startTransition, useContext, useEffect, useState } from 'react';
import { ROUTES } from '@contracts/routes';
import { PageHeading } from '@/components/page-heading';
import { blackcard as copy } from '@/content/blackcard';
import { defineIsland } from '@/lib/islands';
import { PageNavigation } from '@/lib/page-navigation';
import { blackcardCheckoutHref, type Invitee } from '../invitee-session';
import { PRERENDERED_GRANT, readServerGrant } from '../server-grant';
import { useBlackcardAccess, useKeepInvitee } from '../use-blackcard-access';
import { BlackcardContent } from './blackcard-content';
import '../blackcard.css';

/** 'Verifying access...' (spec section 2): all the page shows until the access check has granted it. */
function Verifying() {
  return (
    <main className="blackcard blackcard--verifying">
      <div className="blackcard__verifying" role="status" data-testid="blackcard-verifying">
        <span className="spinner" aria-hidden="true" />
        <PageHeading>{copy.verifying}</PageHeading>
      </div>
    </main>
  );
}

/** /blackcard: the invite-only page behind the access check (spec sections 2 and 4); `search` is the page's query string. */
export function BlackcardPage({ search }: { search: string }) {
  const access = useBlackcardAccess(search);
  const goTo = useContext(PageNavigation);
  const denied = access.status === 'denied';
  useEffect(() => {
    if (denied) goTo(ROUTES.invitation, { replace: true });
  }, [denied, goTo]);

  if (access.status !== 'granted') return <Verifying />;
  return <BlackcardContent checkoutHref={blackcardCheckoutHref(access.invitee)} />;
}

/** The page as the server granted it: its content from the first paint, the invitee kept as a checked token's is. */
function GrantedBlackcardPage({ invitee }: { invitee: Invitee }) {
  useKeepInvitee(invitee);
  return <BlackcardContent checkoutHref={blackcardCheckoutHref(invitee)} />;
}

/**
 * The prerendered /blackcard. Its usual document is the verifying state only: the invitee content
 * is never in that HTML, so nobody without access sees it flash. The access check starts once
 * React owns the page, and what it grants renders as a transition (in slices, leaving the main
 * thread free). When the server has already checked the query token, its document holds the
 * content and the invitee (`grant`, ../server-grant.ts), and the page hydrates that as it is.
 */
function PrerenderedBlackcardPage({ grant }: { grant: Invitee | null }) {
  const [started, setStarted] = useState(false);
  useEffect(() => {
    if (!grant) startTransition(() => setStarted(true));
  }, [grant]);
  if (grant) return <GrantedBlackcardPage invitee={grant} />;
  return started ? <BlackcardPage search={window.location.search} /> : <Verifying />;
}

export const blackcardIsland = defineIsland('blackcard', () => <PrerenderedBlackcardPage grant={readServerGrant()} />);

/** Build-time only: the same island in the server-granted document, the invitee left as placeholders. */
export const grantedBlackcardIsland = defineIsland('blackcard', () => <PrerenderedBlackcardPage grant={PRERENDERED_GRANT} />);
