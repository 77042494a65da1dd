import { useEffect, useState } from 'react';
import { PageHeading } from '@/components/page-heading';
import { invitation as copy } from '@/content/invitation';
import { defineIsland } from '@/lib/islands';
import { waitForTrackingId, type PollSettings } from '@/lib/referral';
import { useInvitationOverlay } from '../use-invitation-overlay';
import { InvitationConfirmation } from './invitation-confirmation';
import { InvitationForm } from './invitation-form';
import { InvitationOverlay } from './invitation-overlay';
import '../invitation.css';

/** Spec sections 4 and 9: /invitation waits up to 5000 ms for the affiliate id, checking as often as the default poll. */
const INVITATION_REFERRAL_POLL: PollSettings = { timeoutMs: 5000, intervalMs: 100 };

/**
 * /invitation: the invitation gate (spec section 2). The route records the page view. On the
 * prerendered page the whole screen is one island: the form, the confirmation that replaces it
 * (heading included) and the overlay.
 */
export function InvitationPage() {
  const overlayPhase = useInvitationOverlay();
  const [confirmed, setConfirmed] = useState(false);

  useEffect(() => {
    // Only logged (spec section 2); the form resolves the referral again when it submits.
    void waitForTrackingId(INVITATION_REFERRAL_POLL).then((id) => console.info(id ? 'Referral id found' : 'No referral id'));
  }, []);

  return (
    <>
      {confirmed ? (
        <InvitationConfirmation />
      ) : (
        <main className="invitation">
          <header className="invitation__hero">
            <p className="invitation__eyebrow">{copy.eyebrow}</p>
            <PageHeading>{copy.form.heading}</PageHeading>
            <p className="invitation__lead">{copy.intro}</p>
            <p className="invitation__lead">{copy.promise}</p>
          </header>
          <InvitationForm onEmailDelivery={() => setConfirmed(true)} />
        </main>
      )}
      <InvitationOverlay phase={overlayPhase} />
    </>
  );
}

export const invitationIsland = defineIsland('invitation', () => <InvitationPage />);
