import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { ROUTES } from '@contracts/routes';
import { PageHeading } from '@/components/page-heading';
import { blackcard as copy } from '@/content/blackcard';
import { blackcardCheckoutHref } from '../invitee-session';
import { useBlackcardAccess } from '../use-blackcard-access';
import { BlackcardContent } from './blackcard-content';
import '../blackcard.css';

/** /blackcard: the invite-only page behind the access check (spec sections 2 and 4). */
export function BlackcardPage() {
  const access = useBlackcardAccess();
  const navigate = useNavigate();
  const denied = access.status === 'denied';
  useEffect(() => {
    if (denied) void navigate(ROUTES.invitation, { replace: true });
  }, [denied, navigate]);

  if (access.status !== 'granted') {
    return (
      <main className="blackcard blackcard--verifying">
        <div className="blackcard__verifying" role="status" data-testid="blackcard-verifying">
          <span className="spinner" aria-hidden="true" />
          <PageHeading>{copy.verifying}</PageHeading>
        </div>
      </main>
    );
  }
  return <BlackcardContent checkoutHref={blackcardCheckoutHref(access.invitee)} />;
}
