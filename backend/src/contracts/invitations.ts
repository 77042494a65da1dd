/**
 * The invitation gate and access-token check (spec sections 3 and 7), shared by the SPA and the API.
 * Optional fields are left out when the visitor gave nothing; `referral` only when an id is known.
 */
export interface InvitationGateRequest {
  name: string;
  email: string;
  phone?: string;
  invitedBy?: string;
  referral?: string;
}

/** `accessToken` is present with instant delivery; with e-mail delivery the answer is `{}`. */
export interface InvitationGateResponse {
  accessToken?: string;
}

/** GET /api/validate-token/{token}: the invitee the token was issued to; unknown or expired tokens answer 404. */
export interface InviteeResponse {
  email: string;
  name: string;
}

/** Spec section 5: the invitation form's name needs at least this many characters. */
export const INVITATION_NAME_MIN_LENGTH = 2;
