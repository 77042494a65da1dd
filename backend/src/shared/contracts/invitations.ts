/** Request and response shapes of the invitation gate and token validation (spec sections 3 and 7). */

export interface InvitationGateRequest {
  name: string;
  email: string;
  phone?: string;
  invitedBy?: string;
  referral?: string;
}

/** `accessToken` is present when the server delivers access instantly; otherwise the link comes by e-mail. */
export interface InvitationGateResponse {
  accessToken?: string;
}

/** The invitee a valid access token belongs to. */
export interface InviteeResponse {
  email: string;
  name: string;
}
