import type { InvitationGateRequest } from '@contracts/invitations';
import { INVITATION_NAME_MIN_LENGTH } from '@contracts/invitations';
import { ROUTES } from '@contracts/routes';
import { invitation as copy } from '@/content/invitation';
import { withQuery } from '@/lib/funnel-links';
import { resolveReferral } from '@/lib/referral';

export interface InvitationFormValues {
  name: string;
  email: string;
  phone: string;
  invitedBy: string;
}

export type InvitationFieldErrors = Partial<Record<'name' | 'email', string>>;

/** Same bound and shape the lead form uses (RFC 5321 path length). */
const MAX_EMAIL_LENGTH = 254;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Spec section 5, invitation form: name of at least 2 characters, a valid e-mail; phone and invitedBy free. */
export function validateInvitation({ name, email }: InvitationFormValues): InvitationFieldErrors {
  const errors: InvitationFieldErrors = {};
  if (name.length < INVITATION_NAME_MIN_LENGTH) errors.name = copy.form.invalidName;
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(email)) errors.email = copy.form.invalidEmail;
  return errors;
}

/** Empty optional fields are left out rather than sent as "", and referral only when an id is known. */
export function buildInvitationRequest({ name, email, phone, invitedBy }: InvitationFormValues): InvitationGateRequest {
  const referral = resolveReferral();
  return {
    name,
    email,
    ...(phone ? { phone } : {}),
    ...(invitedBy ? { invitedBy } : {}),
    ...(referral ? { referral } : {}),
  };
}

export function blackcardPath(accessToken: string): string {
  return withQuery(ROUTES.blackcard, { token: accessToken });
}
