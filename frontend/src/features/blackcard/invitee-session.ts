import { ROUTES } from '@contracts/routes';
import { OFFERS } from '@contracts/plans';
import { INVITE_SOURCE } from '@/content/blackcard';
import { checkoutHref } from '@/lib/funnel-links';
import { sessionStore } from '@/lib/storage';

/** The invitee of a validated access token (spec section 3), kept for the visit in session storage. */
export interface Invitee {
  token: string;
  email: string;
  name: string;
}

const KEYS = { token: 'blackcard_token', email: 'blackcard_email', name: 'blackcard_name' } as const;

export function saveInvitee(invitee: Invitee): void {
  sessionStore.set(KEYS.token, invitee.token);
  sessionStore.set(KEYS.email, invitee.email);
  sessionStore.set(KEYS.name, invitee.name);
}

/** Spec section 4, /blackcard access: the stored session counts only when all three values are there. */
export function readStoredInvitee(): Invitee | null {
  const token = sessionStore.get(KEYS.token);
  const email = sessionStore.get(KEYS.email);
  const name = sessionStore.get(KEYS.name);
  return token && email && name ? { token, email, name } : null;
}

/** Both CTAs (spec section 2): checkout for Level 1 as an invitee, or back to /invitation without token and invitee data. */
export function blackcardCheckoutHref({ token, email, name }: Invitee): string {
  if (!token || !email || !name) return ROUTES.invitation;
  return checkoutHref({ plan: OFFERS.default.id, source: INVITE_SOURCE, token, email, name });
}
