import { invitation as copy } from '@/content/invitation';
import type { OverlayPhase } from '../use-invitation-overlay';

/**
 * Full-screen and brief (3 s), so it neither takes focus nor traps it: the alert region exists from
 * the start and is announced when the message appears in it.
 */
export function InvitationOverlay({ phase }: { phase: OverlayPhase }) {
  const visible = phase === 'showing' || phase === 'fading';
  return (
    <div role="alert" className="invitation-overlay-region">
      {visible ? (
        <div className="invitation-overlay" data-phase={phase} data-testid="invitation-overlay">
          <p className="invitation-overlay__title">{copy.overlay.title}</p>
          <p className="invitation-overlay__body">{copy.overlay.body}</p>
        </div>
      ) : null}
    </div>
  );
}
