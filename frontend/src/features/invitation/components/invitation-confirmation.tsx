import { PageHeading } from '@/components/page-heading';
import { invitation as copy } from '@/content/invitation';

export function InvitationConfirmation() {
  return (
    <main className="invitation invitation--confirmed">
      <div className="invitation__card invitation__confirmation" data-testid="invitation-confirmation">
        <PageHeading>{copy.confirmation.heading}</PageHeading>
        <p className="invitation__check-email">{copy.confirmation.checkEmail}</p>
        <p>{copy.confirmation.body}</p>
      </div>
    </main>
  );
}
